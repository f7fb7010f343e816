package audit

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// The test binary doubles as the fixture server, so the planted tools travel
// the real wire and the client's real parser, absent and malformed hints included.
func TestMain(m *testing.M) {
	if code, ok := fixture.ServeStdioFromEnv(); ok {
		os.Exit(code)
	}
	if p := os.Getenv("MCPSH_FIXTURE_TOOLS"); p != "" {
		tools, err := os.ReadFile(p)
		if err != nil {
			os.Exit(1)
		}
		fixture.Serve(os.Stdin, os.Stdout, tools)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func listFixture(t *testing.T, file string) []*client.Tool {
	t.Helper()
	exe, _ := os.Executable()
	path, _ := filepath.Abs(filepath.Join("testdata", file))
	s, err := client.Connect(context.Background(), client.Target{Kind: client.KindStdio, Command: exe,
		Env: map[string]string{"MCPSH_FIXTURE_TOOLS": path}, Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	l, err := s.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return l.Tools
}

// planted says which rules each fixture tool was built to break. Every rule
// must fire where it is planted and nowhere else.
var planted = map[string][]string{
	"lookup_record":  nil,
	"tag_record":     nil,
	"remove_tag":     nil,
	"tally":          {RuleNoAnnotations},
	"store_bookmark": {RuleDestructiveDefault},
	"lookup_code":    {RuleOpenWorldDefault},
	"mark_done":      {RuleReadOnlyDefault},
	"peek_queue":     {RuleNullHint},
	"peek_stats":     {RuleMalformedHint},
	"scan_disk":      {RuleHintsContradict},
	"ping_host":      {RuleNoTitle},
	"purge_cache":    {RuleNameDestructive},
	"get_archive":    {RuleNameRead},
	"fetch_webpage":  {RuleNameOpenWorld},
	"create_invoice": {RuleIdempotentCreate},
	"import_rows":    {RuleInvalidExample},
	"convert_units":  {RuleSchemaInvalid},
	"render_report":  {RuleSchemaInvalid},
	"bad name!":      {RuleBadName},
	"summary_a":      {RuleDuplicateTitle},
	"summary_b":      {RuleDuplicateTitle},
	"noop":           {RuleEmptyDescription},
}

func TestEveryRuleFiresWhereItIsPlantedAndNowhereElse(t *testing.T) {
	tools := listFixture(t, "planted.json")
	if len(tools) != len(planted) {
		t.Fatalf("the fixture lists %d tools, the test expects %d", len(tools), len(planted))
	}
	got := map[string][]string{}
	for _, f := range Check(tools) {
		got[f.Tool] = append(got[f.Tool], f.Rule)
	}
	for name := range planted {
		sort.Strings(got[name])
		want := append([]string(nil), planted[name]...)
		sort.Strings(want)
		if diff := cmp.Diff(want, got[name]); diff != "" {
			t.Errorf("%s: rules (-planted +fired):\n%s", name, diff)
		}
	}
	// Every rule in the catalogue is planted somewhere.
	covered := map[string]bool{}
	for _, rules := range planted {
		for _, r := range rules {
			covered[r] = true
		}
	}
	for _, r := range Rules {
		if !covered[r.ID] {
			t.Errorf("rule %s is planted nowhere", r.ID)
		}
	}
}

func TestFindingsSayWhatClientsDoAndTheFix(t *testing.T) {
	tools := listFixture(t, "planted.json")
	for _, f := range Check(tools) {
		if !strings.Contains(f.Message, ":") || len(f.Message) < 60 {
			t.Errorf("%s/%s: message too thin: %q", f.Tool, f.Rule, f.Message)
		}
	}
	byRule := map[string]Finding{}
	for _, f := range Check(tools) {
		byRule[f.Rule] = f
	}
	for rule, want := range map[string]string{
		RuleDestructiveDefault: "destructiveHint is absent on a tool that is not read-only: clients treat it as destructive and will ask before every call; set destructiveHint: false if it only adds",
		RuleMalformedHint:      `readOnlyHint is "true", not a boolean`,
		RuleInvalidExample:     `input example 2 ({"count":0}) breaks the input schema, argument "count": minimum: 0 is less than 1`,
		RuleNullHint:           "destructiveHint is null",
		RuleNameDestructive:    `the name says "purge" but readOnlyHint is true`,
		RuleDuplicateTitle:     `"Summary" is shared with summary_`,
		RuleHintsContradict:    "mcpsh reads that the strict way, as destructive and not read-only, so it asks before every call",
	} {
		if !strings.Contains(byRule[rule].Message, want) {
			t.Errorf("%s: %q lacks %q", rule, byRule[rule].Message, want)
		}
	}
	for _, f := range Check(tools) {
		if (strings.HasPrefix(f.Rule, "name-") || f.Rule == RuleIdempotentCreate) && f.Severity != Warning {
			t.Errorf("%s is a name heuristic: it must only warn, not %s", f.Rule, f.Severity)
		}
	}
}

func TestHostPreview(t *testing.T) {
	tools := listFixture(t, "planted.json")
	by := map[string]*client.Tool{}
	for _, tool := range tools {
		by[tool.Name] = tool
	}
	actions := func(name string, trust policy.Trust) string {
		var out []string
		for _, h := range PreviewTool(by[name], trust) {
			out = append(out, string(h.Action))
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		tool  string
		trust policy.Trust
		want  string // mcpsh, VS Code, Claude Code plan, Cursor Ask, Codex
	}{
		{"lookup_record", policy.Trusted, "runs runs runs runs runs"},
		{"tag_record", policy.Trusted, "runs asks hidden hidden runs"},
		{"remove_tag", policy.Trusted, "asks asks hidden hidden asks"},
		{"tally", policy.Trusted, "asks asks hidden hidden asks"},      // no annotations: the worst case
		{"lookup_code", policy.Trusted, "runs reviews runs runs runs"}, // open-world by default
		{"lookup_record", policy.Untrusted, "asks runs runs runs runs"},
		{"scan_disk", policy.Trusted, "asks runs runs runs runs"}, // a conflict: mcpsh believes destructiveHint, the others readOnlyHint
	}
	for _, tt := range tests {
		if got := actions(tt.tool, tt.trust); got != tt.want {
			t.Errorf("%s (%s): %s, want %s", tt.tool, tt.trust, got, tt.want)
		}
	}
}

func TestReadiness(t *testing.T) {
	tools := listFixture(t, "planted.json")
	dirs := Readiness(tools)
	a, o := dirs[0], dirs[1]
	if a.Total != len(tools) || o.Total != len(tools) {
		t.Fatal("totals")
	}
	joined := strings.Join(a.Missing, "\n")
	for _, want := range []string{"tally: readOnlyHint, destructiveHint", "ping_host: a title", "store_bookmark: destructiveHint", "peek_queue: destructiveHint"} {
		if !strings.Contains(joined, want) {
			t.Errorf("Anthropic readiness lacks %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "lookup_record") {
		t.Error("a fully annotated, titled tool is not ready for Anthropic")
	}
	if !strings.Contains(strings.Join(o.Missing, "\n"), "lookup_code: openWorldHint") {
		t.Errorf("OpenAI readiness: %v", o.Missing)
	}
}

func TestTokensAndSentences(t *testing.T) {
	if got := strings.Join(tokens("deleteUserV2_now-please.x"), " "); got != "delete user v2 now please x" {
		t.Errorf("tokens: %q", got)
	}
	if got := firstSentence("Reads a file. Then sends it nowhere."); got != "Reads a file" {
		t.Errorf("first sentence: %q", got)
	}
	if got := firstSentence("Version 1.2 of the reader"); got != "Version 1.2 of the reader" {
		t.Errorf("a dot inside a number is not a sentence end: %q", got)
	}
}

// TestREADMEListsEveryRule keeps the README's rule table true to the catalogue.
func TestREADMEListsEveryRule(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range AllRules() {
		row := "| `" + r.ID + "` | " + string(r.Severity) + " | " + r.Summary + " |"
		if !strings.Contains(string(b), row) {
			t.Errorf("README.md lacks the row %s", row)
		}
	}
}
