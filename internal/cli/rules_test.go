package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
)

// rulesConfig has two demo servers, strict (whose own rules deny every
// destructive tool) and plain, and a top-level policy that asks before every
// open-world call and denies writes on strict alone.
const rulesConfig = `{
  "policy": {
    "confirm": ["is:open-world"],
    "deny": ["server:strict is:write"]
  },
  "mcpServers": {
    "strict": {"command": %q, "env": {"MCPSH_TEST_SERVE_DEMO": "1"}, "policy": {"deny": ["is:destructive"]}},
    "plain": {"command": %q, "env": {"MCPSH_TEST_SERVE_DEMO": "1"}}
  }
}`

func rulesConfigFile(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return writeConfig(t, sprintf(rulesConfig, exe, exe))
}

// logged reads the session log file at path, one outcome per line.
func logged(t *testing.T, path string) []client.Outcome {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []client.Outcome
	for _, line := range lines(string(b)) {
		var o client.Outcome
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		out = append(out, o)
	}
	return out
}

// TestGlobalConfirmOnOpenWorld: a top-level "confirm": ["is:open-world"]
// makes a read-only open-world tool ask, so in batch it is refused and never
// sent, on a configured server and on --demo alike; the refusal says which
// hint decided, and whose claim it was.
func TestGlobalConfirmOnOpenWorld(t *testing.T) {
	t.Parallel()
	cfg := rulesConfigFile(t)
	r, srv := run(t, env{}, "call", "--config", cfg, "--demo", "weather_forecast", "city=Oslo")
	wantCode(t, r, ExitRefused)
	contains(t, "stderr", r.errOut, `rule "is:open-world" asks first`, "pass --yes",
		`  openWorldHint true — declared by the server (a claim, not checked); rule "is:open-world" matched on it`)
	if n := srv.Executions("weather_forecast"); n != 0 {
		t.Errorf("a refused call ran %d times", n)
	}
	// A closed-world read-only tool is untouched by the rule.
	r, srv = run(t, env{}, "call", "--config", cfg, "--demo", "list_notes")
	wantCode(t, r, ExitOK)
	if srv.Executions("list_notes") != 1 {
		t.Error("list_notes did not run")
	}

	log := filepath.Join(t.TempDir(), "log.jsonl")
	for _, server := range []string{"strict", "plain"} {
		r, _ = run(t, env{}, "call", "--config", cfg, "--log", log, "-s", server, "weather_forecast", "city=Oslo")
		wantCode(t, r, ExitRefused)
		contains(t, "stderr", r.errOut, `rule "is:open-world" asks first`)
	}
	// Approved in advance, it runs.
	r, _ = run(t, env{}, "call", "--config", cfg, "--log", log, "-s", "plain", "weather_forecast", "city=Oslo", "--yes")
	wantCode(t, r, ExitOK)
	entries := logged(t, log)
	if len(entries) != 3 {
		t.Fatalf("%d entries, want 3", len(entries))
	}
	for i, o := range entries[:2] {
		if o.Status != client.StatusRefused || len(o.Attempts) != 0 || o.Rule != "is:open-world" {
			t.Errorf("entry %d: %s, %d attempts, rule %q; want refused, none sent, by the rule", i, o.Status, len(o.Attempts), o.Rule)
		}
	}
	var decided []string
	for _, b := range entries[0].Basis {
		if b.Decided {
			decided = append(decided, string(b.Field)+" "+string(b.Source)+" "+b.Rule)
		}
	}
	if strings.Join(decided, ",") != "openWorldHint declared is:open-world" {
		t.Errorf("the log's basis decided on %q", decided)
	}
	if entries[2].Status != client.StatusOK || entries[2].ApprovedBy != "caller" {
		t.Errorf("with --yes: %s by %s", entries[2].Status, entries[2].ApprovedBy)
	}
}

// TestClassRulesPerServer: a server's own "deny": ["is:destructive"] refuses
// its destructive tools, even with --yes, and leaves another server's alone;
// a top-level rule scoped with server: does the same for writes.
func TestClassRulesPerServer(t *testing.T) {
	t.Parallel()
	cfg := rulesConfigFile(t)
	log := filepath.Join(t.TempDir(), "log.jsonl")
	r, _ := run(t, env{}, "call", "--config", cfg, "--log", log, "-s", "strict", "pop_note", "--yes")
	wantCode(t, r, ExitRefused)
	contains(t, "stderr", r.errOut, `denied by rule "is:destructive"`,
		`  destructiveHint true — declared by the server (a claim, not checked); rule "is:destructive" matched on it`)
	r, _ = run(t, env{}, "call", "--config", cfg, "--log", log, "-s", "plain", "pop_note", "--yes")
	wantCode(t, r, ExitOK)

	r, _ = run(t, env{}, "call", "--config", cfg, "--log", log, "-s", "strict", "add_note", "title=x", "--yes")
	wantCode(t, r, ExitRefused)
	contains(t, "stderr", r.errOut, `denied by rule "server:strict is:write"`)
	r, _ = run(t, env{}, "call", "--config", cfg, "--log", log, "-s", "plain", "add_note", "title=x")
	wantCode(t, r, ExitOK)

	var got []string
	for _, o := range logged(t, log) {
		got = append(got, o.Server+" "+o.Tool+" "+string(o.Status)+" "+o.Rule)
		if o.Status == client.StatusRefused && len(o.Attempts) != 0 {
			t.Errorf("%s %s was refused after %d attempts", o.Server, o.Tool, len(o.Attempts))
		}
	}
	want := "strict pop_note refused is:destructive|plain pop_note ok |strict add_note refused server:strict is:write|plain add_note ok "
	if strings.Join(got, "|") != want {
		t.Errorf("log:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	// mcpsh servers shows each server's rules, the top-level ones included.
	r, _ = run(t, env{}, "servers", "--config", cfg, "--json")
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, `"pattern": "server:strict is:write"`)
}

// TestBadRulesNameFileKeyAndTerm: a rule config cannot read stops every
// command that would call with it, saying where.
func TestBadRulesNameFileKeyAndTerm(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, `{"policy": {"deny": ["is:destructive", "is:dest"]}, "mcpServers": {}}`)
	r, _ := run(t, env{}, "call", "--config", cfg, "--demo", "list_notes")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, cfg+`: policy.deny[1]: unknown is: word "dest" (want one of destructive, write, read-only, open-world, implied, conflict, idempotent)`)
}
