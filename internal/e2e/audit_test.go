package e2e

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

type finding struct {
	Tool, Rule, Severity, Message string
}

func auditJSON(t *testing.T, o opts, code int, target ...string) []finding {
	t.Helper()
	r := mcpsh(t, o, append([]string{"audit", "--json"}, target...)...)
	wantCode(t, r, code)
	var fs []finding
	if err := json.Unmarshal([]byte(r.out), &fs); err != nil {
		t.Fatalf("audit --json: %v\n%s", err, r.out)
	}
	return fs
}

func TestAuditFindsWhatIsPlanted(t *testing.T) {
	t.Parallel()
	planted := filepath.Join(repoRoot, "internal", "audit", "testdata", "planted.json")
	target := []string{"--", fixtureBin, planted}
	fs := auditJSON(t, opts{}, 5, target...)
	byRule := map[string][]string{}
	for _, f := range fs {
		byRule[f.Rule] = append(byRule[f.Rule], f.Tool)
		if f.Severity != "error" && f.Severity != "warning" && f.Severity != "info" {
			t.Errorf("severity %q", f.Severity)
		}
	}
	// The unit test in internal/audit checks each rule against the fixture;
	// here the binary must report them across a real process boundary.
	for rule, tools := range map[string]string{
		"hints-contradict": "scan_disk", "malformed-hint": "peek_stats", "null-hint": "peek_queue",
		"no-annotations": "tally", "destructive-by-default": "store_bookmark", "schema-invalid": "convert_units,render_report",
		"duplicate-title": "summary_a,summary_b", "bad-name": "bad name!", "invalid-example": "import_rows",
	} {
		got := byRule[rule]
		sort.Strings(got)
		if strings.Join(got, ",") != tools {
			t.Errorf("%s fired on %v, want %s", rule, got, tools)
		}
	}
	r := mcpsh(t, opts{}, append([]string{"audit", "--fail-on", "none"}, target...)...)
	wantCode(t, r, 0)
	contains(t, "text report", r.out, "(reports itself as mcpsh-fixture 1)", "scan_disk  Scan the disk · destructive", "error    hints-contradict",
		"hosts: mcpsh", "Directory readiness", "Anthropic directory:")
	r = mcpsh(t, opts{}, append([]string{"audit", "--format", "markdown", "--fail-on", "none"}, target...)...)
	wantCode(t, r, 0)
	contains(t, "markdown", r.out, "## mcpsh audit: ", `\(reports itself as mcpsh\-fixture 1\)`, "| severity | tool | rule | finding |",
		"| ⛔ error | `scan_disk` | `hints-contradict` |", "### How hosts will treat each tool", "`bad name!`")
	r = mcpsh(t, opts{}, append([]string{"audit", "--fail-on", "bogus"}, target...)...)
	wantCode(t, r, 2)
}

func TestAuditOfTheDemo(t *testing.T) {
	t.Parallel()
	fs := auditJSON(t, opts{}, 5, "--demo")
	var got []string
	for _, f := range fs {
		got = append(got, f.Tool+":"+f.Rule)
	}
	// The demo's defects are deliberate, to show what the audit finds.
	want := "archive_notes:destructive-by-default echo:no-annotations echo:no-title send_message:name-suggests-destructive"
	if strings.Join(got, " ") != want {
		t.Errorf("demo findings %q, want %q", strings.Join(got, " "), want)
	}
	r := mcpsh(t, opts{}, "audit", "--demo", "--fail-on", "error")
	wantCode(t, r, 0)
}

// explained lists the warnings the reference servers draw, each with why it
// is a true finding. Any other warning, or any error, fails the test.
var explained = map[string]string{}

func TestAuditOfTheReferenceServers(t *testing.T) {
	t.Parallel()
	fsRoot := t.TempDir()
	servers := map[string][]string{
		"filesystem": {"--", npmBin(t, "mcp-server-filesystem"), fsRoot},
		"memory":     {"--", npmBin(t, "mcp-server-memory")},
		"everything": {"--", npmBin(t, "mcp-server-everything")},
	}
	env := []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")}
	for name, target := range servers {
		r := mcpsh(t, opts{env: env}, append([]string{"audit", "--json", "--fail-on", "none"}, target...)...)
		wantCode(t, r, 0)
		var fs []finding
		if err := json.Unmarshal([]byte(r.out), &fs); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, f := range fs {
			switch {
			case f.Severity == "error":
				t.Errorf("%s: error finding on a reference server: %+v", name, f)
			case f.Severity == "warning" && explained[name+"/"+f.Tool+"/"+f.Rule] == "":
				t.Errorf("%s: unexplained warning %s/%s: %s", name, f.Tool, f.Rule, f.Message)
			}
		}
		t.Logf("%s: %d findings", name, len(fs))
	}
	// Not a vacuous pass: the same servers do show up in readiness where they
	// really fall short. server-filesystem leaves destructiveHint out on its ten
	// read tools (harmless to clients, but the ChatGPT Apps review wants all
	// three hints explicit), while server-everything declares everything.
	r := mcpsh(t, opts{}, append([]string{"audit"}, servers["filesystem"]...)...)
	wantCode(t, r, 0)
	contains(t, "filesystem readiness", r.out, "OpenAI apps (ChatGPT): 4 of 14 tools ready", "read_text_file: destructiveHint",
		"create_directory  Create Directory · write\n  no findings")
	r = mcpsh(t, opts{}, append([]string{"audit"}, servers["everything"]...)...)
	contains(t, "everything readiness", r.out, "Anthropic directory: 13 of 13 tools ready", "OpenAI apps (ChatGPT): 13 of 13 tools ready")
}
