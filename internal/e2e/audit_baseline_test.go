package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// audit --save-baseline pins a server's annotations; audit --baseline
// checks a later version of it: unchanged (0), reworded and strengthened
// (0, listed as information), weakened three ways and more (5, each named).
// The server is a raw fixture serving each version's tools as written.
func TestAuditBaselineCatchesWhatWeakened(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	dir := t.TempDir()
	version := func(name string) []string {
		return []string{"--", fixtureBin, filepath.Join("..", "audit", "testdata", "baseline-"+name+".json")}
	}
	base := filepath.Join(dir, "notes.baseline.json")
	r := mcpsh(t, opts{env: env}, append([]string{"audit", "--no-log", "--save-baseline", base}, version("v1")...)...)
	wantCode(t, r, 0)
	contains(t, "stderr", r.errOut, "saved the baseline of", "3 tools to "+base)
	b, err := os.ReadFile(base)
	if err != nil || !json.Valid(b) || !strings.Contains(string(b), `"mcpshBaseline": 1`) {
		t.Fatalf("the baseline file: %v\n%s", err, b)
	}

	r = mcpsh(t, opts{env: env}, append([]string{"audit", "--no-log", "--baseline", base}, version("v1-reordered")...)...)
	wantCode(t, r, 0)
	contains(t, "unchanged", r.out, "3 tools now, 3 in the baseline · 0 weakened, 0 information", "nothing changed")

	r = mcpsh(t, opts{env: env}, append([]string{"audit", "--no-log", "--baseline", base}, version("v2-reworded")...)...)
	wantCode(t, r, 0)
	contains(t, "reworded", r.out, "0 weakened, 6 information", "baseline-reworded", `title "Fetch a page" is now "Fetch a web page"`, "baseline-strengthened")

	r = mcpsh(t, opts{env: env}, append([]string{"audit", "--no-log", "--json", "--baseline", base}, version("v3-weakened")...)...)
	wantCode(t, r, 5)
	var findings []struct{ Tool, Rule, Severity, Message string }
	if err := json.Unmarshal([]byte(r.out), &findings); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.out)
	}
	named := map[string]bool{}
	for _, f := range findings {
		if f.Severity == "error" {
			named[f.Tool+" "+f.Rule] = true
		}
	}
	for _, want := range []string{"delete_note baseline-weakened", "fetch_page baseline-weakened", "add_note baseline-breaking-schema",
		"fetch_page baseline-breaking-schema", "purge baseline-new-tool-unannotated"} {
		if !named[want] {
			t.Errorf("no error finding %q in %s", want, r.out)
		}
	}
	contains(t, "stderr", r.errOut, "audit found 8 error(s), 0 warning(s), 1 info")

	r = mcpsh(t, opts{env: env}, append([]string{"audit", "--no-log", "--format", "sarif", "--baseline", base}, version("v3-weakened")...)...)
	wantCode(t, r, 5)
	contains(t, "sarif", r.out, `"ruleId": "baseline-weakened"`, `"id": "baseline-breaking-schema"`)

	r = mcpsh(t, opts{env: env}, append([]string{"audit", "--no-log", "--format", "markdown", "--baseline", base}, version("v3-weakened")...)...)
	wantCode(t, r, 5)
	contains(t, "markdown", r.out, "## mcpsh baseline check", "| ⛔ error | `delete_note` | `baseline-weakened` | no longer destructive")
}

// A baseline that cannot be read is a usage error naming the file, and
// nothing is started.
func TestAuditBaselineRefusesABadFileBeforeStarting(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	server := []string{"--", "sh", "-c", "touch " + started}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"tools": []}`), 0o600)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--baseline", filepath.Join(dir, "missing.json")}, "--baseline " + filepath.Join(dir, "missing.json") + ": no such file or directory"},
		{[]string{"--baseline", bad}, "--baseline " + bad + `: not an mcpsh baseline (no "mcpshBaseline" key`},
		{[]string{"--baseline", bad, "--save-baseline", bad}, "--save-baseline and --baseline"},
		{[]string{"--save-baseline", bad, "--probe"}, "--save-baseline and --probe"},
	} {
		r := mcpsh(t, opts{env: env}, append(append([]string{"audit", "--no-log"}, tt.args...), server...)...)
		wantCode(t, r, 2)
		contains(t, "stderr", r.errOut, tt.want)
	}
	if _, err := os.Stat(started); err == nil {
		t.Error("the server was started")
	}
}
