package cli

import (
	"encoding/json"
	"os"
	"testing"
)

const testConfig = `{
  // JSONC is fine
  "mcpServers": {
    "notes": {"command": %q, "env": {"MCPSH_TEST_SERVE_DEMO": "1"},
              "policy": {"deny": ["pop_*"], "allow": ["delete_note"]}, "retries": 1},
    "careful": {"command": %q, "env": {"MCPSH_TEST_SERVE_DEMO": "1"}, "trust": "untrusted"},
    "remote": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
  }
}`

func configWithDemo(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return writeConfig(t, sprintf(testConfig, exe, exe))
}

func TestServers(t *testing.T) {
	cfg := configWithDemo(t)
	r, _ := run(t, env{}, "servers", "--config", cfg)
	wantCode(t, r, ExitOK)
	ls := lines(r.out)
	if len(ls) != 3 {
		t.Fatalf("%q", ls)
	}
	contains(t, "stdout", r.out, "careful\tstdio", "untrusted", "notes\tstdio", "2 rules", "remote\thttp\thttp://127.0.0.1:9/mcp", "${TOKEN} is not set")
	r, _ = run(t, env{vars: map[string]string{"TOKEN": "s3cret"}}, "servers", "--config", cfg, "--json")
	wantCode(t, r, ExitOK)
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.out), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || containsStr(r.out, "s3cret") {
		t.Errorf("servers --json must list 3 servers and no header values:\n%s", r.out)
	}
}

func TestConfiguredServerRulesAndTrust(t *testing.T) {
	cfg := configWithDemo(t)
	// An allow rule runs a destructive tool in batch without --yes.
	r, _ := run(t, env{}, "call", "--config", cfg, "-s", "notes", "delete_note", "id=1")
	wantCode(t, r, ExitOK)
	// Deny wins, even over --yes.
	r, _ = run(t, env{}, "call", "--config", cfg, "-s", "notes", "pop_note", "--yes")
	wantCode(t, r, ExitRefused)
	contains(t, "stderr", r.errOut, `denied by rule "pop_*"`)
	r, _ = run(t, env{}, "call", "--config", cfg, "-s", "careful", "list_notes")
	wantCode(t, r, ExitRefused)
	contains(t, "stderr", r.errOut, "untrusted")
	r, _ = run(t, env{}, "call", "--config", cfg, "-s", "careful", "flaky_sync", "--yes")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "not retried because the server is untrusted")
	// The configured retries apply (flaky_sync fails on its first execution)
	// unless --retries says otherwise.
	r, _ = run(t, env{}, "call", "--config", cfg, "-s", "notes", "flaky_sync")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "gave up after 1 attempt")
	r, _ = run(t, env{}, "call", "--config", cfg, "-s", "notes", "flaky_sync", "--retries", "4")
	wantCode(t, r, ExitOK)
	// MCPSH_CONFIG finds the file too.
	r, _ = run(t, env{vars: map[string]string{"MCPSH_CONFIG": cfg}}, "tools", "-s", "notes")
	wantCode(t, r, ExitOK)
	r, _ = run(t, env{}, "tools", "--config", cfg, "-s", "remote")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, "${TOKEN} is not set")
	r, _ = run(t, env{}, "tools", "--config", cfg, "-s", "nope")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, `unknown server "nope"`)
}

func TestTargetMistakes(t *testing.T) {
	cfg := configWithDemo(t)
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"tools", "--demo", "--url", "http://127.0.0.1:1/mcp"}, "choose one target, not --demo and --url"},
		{[]string{"tools", "--demo", "--header", "A: b"}, "--header needs --url or --sse"},
		{[]string{"tools", "--url", "ftp://x"}, "want an http:// or https:// URL"},
		{[]string{"tools", "--url", "http://127.0.0.1:1/mcp", "--header", "nocolon"}, "want 'Name: value'"},
		{[]string{"tools"}, "no server given: name a server"},
		{[]string{"tools", "--config", cfg}, "no server given and 3 are configured (careful, notes, remote)"},
		{[]string{"tools", "--nope"}, "unknown flag: --nope"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
	}
	for _, tt := range tests {
		r, _ := run(t, env{}, tt.args...)
		if r.code != ExitUsage || !containsStr(r.errOut, tt.msg) {
			t.Errorf("%q: exit %d stderr %q, want 2 and %q", tt.args, r.code, r.errOut, tt.msg)
		}
	}
}

func TestUnreachableServerExitsOne(t *testing.T) {
	r, _ := run(t, env{}, "tools", "--url", "http://127.0.0.1:9/mcp")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "connecting to http://127.0.0.1:9/mcp")
	r, _ = run(t, env{}, "tools", "--", "/nonexistent/server")
	wantCode(t, r, ExitFailure)
}

func TestStdioTargetAfterDash(t *testing.T) {
	exe, _ := os.Executable()
	t.Setenv("MCPSH_TEST_SERVE_DEMO", "1")
	r, _ := run(t, env{}, "call", "get_note", "id=1", "--", exe)
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "Welcome to mcpsh")
}

func TestHelpTeachesExitCodes(t *testing.T) {
	r, _ := run(t, env{}, "--help")
	wantCode(t, r, ExitOK)
	contains(t, "help", r.out, "Exit codes:", "130  interrupted", "--demo", "-- COMMAND ARGS")
}
