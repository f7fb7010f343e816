package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// probeSession connects to the fixture's probe scenario, played by this test
// binary over stdio, with the watch on the session's wire.
func probeSession(t *testing.T, trust policy.Trust, rules []policy.Rule, w *Watch) (*client.Session, string) {
	t.Helper()
	state := t.TempDir()
	exe, _ := os.Executable()
	opts := &client.Options{}
	if w != nil {
		opts.Trace = w.Note
	}
	s, err := client.Connect(context.Background(), client.Target{Kind: client.KindStdio, Command: exe,
		Env:   fixture.Env("probe", state),
		Trust: trust, Rules: rules}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, state
}

func probeFindings(p *Probe) map[string][]string {
	out := map[string][]string{}
	for _, f := range p.Findings {
		out[f.Tool] = append(out[f.Tool], f.Rule+": "+f.Message)
	}
	return out
}

func TestProbeReportsWhatReadOnlyToolsDo(t *testing.T) {
	w := &Watch{}
	s, state := probeSession(t, policy.Trusted, nil, w)
	p, err := RunProbe(context.Background(), s, ProbeOptions{Watch: w})
	if err != nil {
		t.Fatal(err)
	}
	got := probeFindings(p)
	for tool, want := range map[string]string{
		"peek_counter": "read-only-changed-state: declared read-only, but while mcpsh ran it (with no arguments) the server sent notifications/tools/list_changed before the answer: running it changed the server's tool list",
		"peek_feed":    `read-only-changed-state: declared read-only, but while mcpsh ran it (example 1 ({"feed":"news"})) the server sent notifications/resources/updated for feed://news before the answer: running it changed a resource`,
		"get_report":   `output-schema-mismatch: the result of example 1 ({"period":"week"}): structuredContent.total does not match the output schema`,
	} {
		if len(got[tool]) != 1 || !strings.HasPrefix(got[tool][0], want) {
			t.Errorf("%s: findings %q, want one starting %q", tool, got[tool], want)
		}
	}
	for _, clean := range []string{"lookup_item", "list_items", "count_items", "find_item", "purge_items", "scan_fix", "tidy_tags"} {
		if len(got[clean]) > 0 {
			t.Errorf("%s: unexpected findings %q", clean, got[clean])
		}
	}

	// What reached the server: the read-only tools, with their valid
	// examples; nothing else, and count_items not after peek_counter made it
	// destructive.
	calls := stateLines(state, "calls")
	sort.Strings(calls)
	want := []string{`get_report`, `list_items`, `lookup_item`, `peek_counter`, `peek_feed`}
	var names []string
	for _, c := range calls {
		names = append(names, strings.Fields(c)[0])
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("calls that reached the server: %q, want one each of %q", calls, want)
	}
	if fixture.CountIn(state, "calls", `lookup_item {"id":1}`) != 1 || fixture.CountIn(state, "calls", `lookup_item {"id":0}`) != 0 {
		t.Errorf("lookup_item: its valid example must be sent and its invalid one never: %q", calls)
	}
	if p.Calls != 5 || p.Tools != 5 {
		t.Errorf("calls %d to %d tools, want 5 to 5", p.Calls, p.Tools)
	}

	skipped := map[string]string{}
	for _, n := range p.Skipped {
		skipped[n.String()] = n.Why
	}
	for what, why := range map[string]string{
		"lookup_item example 2": "not sent: the example breaks the tool's own input schema",
		"find_item":             "not called: it has no input examples and needs arguments",
		"purge_items":           "not called: a destructive tool",
		"scan_fix":              "not called: readOnlyHint and destructiveHint are both true",
		"tidy_tags":             "not called: a write tool",
		"count_items":           "not called: the server re-declared it during the probe: readOnlyHint true → false, destructiveHint absent → true",
	} {
		if !strings.HasPrefix(skipped[what], why) {
			t.Errorf("%s: skipped as %q, want %q", what, skipped[what], why)
		}
	}
	if len(p.Failed) != 0 || p.Incomplete() {
		t.Errorf("failed: %v", p.Failed)
	}
}

func TestProbeRefusesAnUntrustedServerAndSendsNothing(t *testing.T) {
	s, state := probeSession(t, policy.Untrusted, nil, nil)
	p, err := RunProbe(context.Background(), s, ProbeOptions{})
	if !errors.Is(err, ErrUntrusted) || p != nil {
		t.Fatalf("RunProbe on an untrusted server: %v, %v", p, err)
	}
	if calls := fixture.Lines(state, "executions"); len(calls) != 0 {
		t.Errorf("an untrusted server got calls: %q", calls)
	}
}

func TestProbeHonoursRules(t *testing.T) {
	rules := []policy.Rule{{Pattern: "peek_*", Action: policy.Deny}, {Pattern: "list_items", Action: policy.Confirm}}
	s, state := probeSession(t, policy.Trusted, rules, nil)
	p, err := RunProbe(context.Background(), s, ProbeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"peek_counter", "peek_feed", "list_items"} {
		if n := fixture.CountIn(state, "executions", tool); n != 0 {
			t.Errorf("%s ran %d times against a rule", tool, n)
		}
	}
	skipped := map[string]string{}
	for _, n := range p.Skipped {
		skipped[n.String()] = n.Why
	}
	if !strings.Contains(skipped["peek_feed"], `the rule "peek_*" keeps it from running unasked`) ||
		!strings.Contains(skipped["list_items"], `the rule "list_items"`) {
		t.Errorf("skipped: %v", skipped)
	}
	// count_items stays read-only here: peek_counter never ran.
	if fixture.CountIn(state, "executions", "count_items") != 1 {
		t.Errorf("count_items: %q", fixture.Lines(state, "executions"))
	}
}

func TestWatchPutsNoticesOnTheCallInFlight(t *testing.T) {
	w := &Watch{}
	note := func(dir, kind, method, id, msg string) {
		w.Note(client.TraceEntry{Dir: dir, Kind: kind, Method: method, ID: id, Message: []byte(msg)})
	}
	note("in", "notification", "notifications/tools/list_changed", "", `{}`) // before any call
	note("out", "request", "tools/call", "7", `{}`)
	note("in", "notification", "notifications/progress", "", `{}`) // not a state change
	note("in", "notification", "notifications/resources/updated", "", `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a"}}`)
	note("in", "response", "tools/list", "8", `{}`) // another request's answer does not end the call
	note("in", "notification", "notifications/prompts/list_changed", "", `{}`)
	note("in", "response", "tools/call", "7", `{}`)
	note("in", "notification", "notifications/resources/list_changed", "", `{}`) // after the answer
	during := w.Take()
	if len(during) != 2 || during[0].String() != "notifications/resources/updated for file:///a" || during[1].Method != "notifications/prompts/list_changed" {
		t.Errorf("during the call: %v", during)
	}
	between := w.Between()
	if len(between) != 2 || between[0].Method != "notifications/tools/list_changed" || between[1].Method != "notifications/resources/list_changed" {
		t.Errorf("between calls: %v", between)
	}
	// A call left open (it timed out) is closed by Take.
	note("out", "request", "tools/call", "9", `{}`)
	w.Take()
	note("in", "notification", "notifications/tools/list_changed", "", `{}`)
	if d := w.Take(); len(d) != 0 {
		t.Errorf("a notice after Take went on the timed-out call: %v", d)
	}
}

// stateLines reads a fixture state file a line at a time (fixture.Lines splits
// at spaces, and calls hold "NAME ARGS").
func stateLines(dir, kind string) []string {
	b, _ := os.ReadFile(filepath.Join(dir, kind))
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}
