package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/testenv"
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
	t.Parallel()
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
	t.Parallel()
	cfg := configWithDemo(t)
	for _, tt := range []struct {
		name string
		vars map[string]string
		args []string
		code int
		errs []string // what stderr says
	}{
		// An allow rule runs a destructive tool in batch without --yes.
		{"allow rule", nil, []string{"call", "--config", cfg, "-s", "notes", "delete_note", "id=1"}, ExitOK, nil},
		// Deny wins, even over --yes.
		{"deny wins", nil, []string{"call", "--config", cfg, "-s", "notes", "pop_note", "--yes"}, ExitRefused, []string{`denied by rule "pop_*"`}},
		{"untrusted asks", nil, []string{"call", "--config", cfg, "-s", "careful", "list_notes"}, ExitRefused, []string{"untrusted"}},
		{"untrusted not retried", nil, []string{"call", "--config", cfg, "-s", "careful", "flaky_sync", "--yes"}, ExitFailure, []string{"not retried because the server is untrusted"}},
		// The configured retries apply (flaky_sync fails on its first execution)
		// unless --retries says otherwise.
		{"configured retries", nil, []string{"call", "--config", cfg, "-s", "notes", "flaky_sync"}, ExitFailure, []string{"gave up after 1 attempt"}},
		{"--retries wins", nil, []string{"call", "--config", cfg, "-s", "notes", "flaky_sync", "--retries", "4"}, ExitOK, nil},
		// MCPSH_CONFIG finds the file too.
		{"MCPSH_CONFIG", map[string]string{"MCPSH_CONFIG": cfg}, []string{"tools", "-s", "notes"}, ExitOK, nil},
		{"unset header variable", nil, []string{"tools", "--config", cfg, "-s", "remote"}, ExitUsage, []string{"${TOKEN} is not set"}},
		{"unknown server", nil, []string{"tools", "--config", cfg, "-s", "nope"}, ExitUsage, []string{`unknown server "nope"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, _ := run(t, env{vars: tt.vars}, tt.args...)
			wantCode(t, r, tt.code)
			contains(t, "stderr", r.errOut, tt.errs...)
		})
	}
}

func TestTargetMistakes(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	r, _ := run(t, env{}, "tools", "--url", "http://127.0.0.1:9/mcp")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "connecting to http://127.0.0.1:9/mcp")
	r, _ = run(t, env{}, "tools", "--", "/nonexistent/server")
	wantCode(t, r, ExitFailure)
}

func TestStdioTargetAfterDash(t *testing.T) {
	t.Parallel()
	exe, _ := os.Executable()
	r, _ := run(t, env{}, "call", "get_note", "id=1", "--", exe, serveDemoArg)
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "Welcome to mcpsh")
}

func TestHelpTeachesExitCodes(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{}, "--help")
	wantCode(t, r, ExitOK)
	contains(t, "help", r.out, "Exit codes:", "130  interrupted", "--demo", "-- COMMAND ARGS")
}

// installHosts installs the other hosts' config (testenv.InstallHosts) with
// the test binary as the demo server, and makes the tests' working directory
// a folder deep in the repository.
func installHosts(t *testing.T) *testenv.Hosts {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := testenv.InstallHosts(t, exe)
	hostsCwd.Store(t, h.Cwd)
	t.Cleanup(func() { hostsCwd.Delete(t) })
	return h
}

// hostsCwd is, per test that called installHosts, the folder run makes
// mcpsh look for project files from.
var hostsCwd sync.Map // *testing.T → string

// discoveredJSON is the part of `servers --json` these tests read.
type discoveredJSON struct {
	Name, Ref, Transport, Held, Trust, Problem, Command, Cwd string
	Origin                                                   struct{ Host, Scope, File, Key string }
	Winner                                                   bool
	AlsoIn, Env, Headers                                     []string
}

func TestServersFromEveryHost(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	r, _ := run(t, env{vars: h.Env()}, "servers", "--json")
	wantCode(t, r, ExitOK)
	var list []discoveredJSON
	if err := json.Unmarshal([]byte(r.out), &list); err != nil {
		t.Fatal(err, r.out)
	}
	byRef := map[string][]discoveredJSON{}
	for _, s := range list {
		byRef[s.Ref] = append(byRef[s.Ref], s)
	}
	if len(list) != 24 {
		t.Errorf("%d servers, want 24:\n%s", len(list), r.out)
	}
	// The clash of github: four files, one winner, every one listed.
	var winners []string
	for _, s := range list {
		if s.Name == "github" {
			if s.Winner {
				winners = append(winners, s.Ref+" "+s.Origin.Scope)
			}
			if len(s.AlsoIn) != 3 {
				t.Errorf("github %s: alsoIn %v", s.Ref, s.AlsoIn)
			}
		}
	}
	if !slices.Equal(winners, []string{"claude-code:github user"}) {
		t.Errorf("github's winners: %v", winners)
	}
	gh := byRef["claude-code:github"]
	if len(gh) != 2 || gh[0].Origin.Scope != "project" || gh[0].Held == "" || gh[1].Origin.File != filepath.Join(h.Home, ".claude.json") ||
		gh[1].Origin.Key != "mcpServers.github" || !slices.Equal(gh[1].Env, []string{"GITHUB_PERSONAL_ACCESS_TOKEN", "MCPSH_TEST_SERVE_DEMO"}) {
		t.Errorf("claude-code:github: %+v", gh)
	}
	local := byRef["claude-code:local-db"]
	if len(local) != 1 || local[0].Origin.Scope != "local" || local[0].Origin.Key != "projects["+h.Repo+"].mcpServers.local-db" || local[0].Cwd != h.Repo {
		t.Errorf("local-db: %+v", local)
	}
	if s := byRef["cursor:github"]; len(s) != 1 || s[0].Trust != "untrusted" || !slices.Equal(s[0].Headers, []string{"Authorization"}) {
		t.Errorf("cursor:github (mcpsh's config untrusts cursor:*): %+v", s)
	}
	if s := byRef["vscode:perplexity"]; len(s) != 1 || !strings.Contains(s[0].Problem, "${input:perplexity-key} asks vscode to prompt") {
		t.Errorf("perplexity: %+v", s)
	}
	if s := byRef["mcpsh:docs"]; len(s) != 1 || !s[0].Winner || s[0].Origin.Scope != "own" {
		t.Errorf("mcpsh's docs wins: %+v", s)
	}
	// Values of env and headers never show; names do.
	for _, secret := range []string{"ghp_s3cretgithubtoken", "docs-s3cret-value"} {
		if strings.Contains(r.out+r.errOut, secret) {
			t.Errorf("servers --json shows %q", secret)
		}
	}
	// The malformed file is one warning naming it, with line and column.
	warn := "mcpsh: warning: " + filepath.Join(h.Home, ".gemini", "settings.json") + ":5:5: invalid character"
	if strings.Count(r.errOut, "mcpsh: warning:") != 1 || !strings.Contains(r.errOut, warn) {
		t.Errorf("stderr:\n%s\nwant once: %s", r.errOut, warn)
	}

	// The text listing: the winner marked, the others told how to be picked.
	r, _ = run(t, env{vars: h.Env()}, "servers")
	wantCode(t, r, ExitOK)
	contains(t, "servers", r.out,
		"github\tstdio\t"+os.Args[0],
		"from claude-code (~/.claude.json); -s github uses this one (4 define it)",
		"from cursor (~/.cursor/mcp.json); untrusted; -s github uses claude-code:github; -s cursor:github picks this one",
		"notion\tstdio\tnpx -y @notionhq/notion-mcp-server\tfrom cursor (~/.cursor/mcp.json); held: disabled in its file",
		"docs\tstdio\t"+os.Args[0]+"\t-s docs uses this one (2 define it)",
	)

	// --no-discover: mcpsh's own file only, and no warning.
	r, _ = run(t, env{vars: h.Env()}, "servers", "--json", "--no-discover")
	wantCode(t, r, ExitOK)
	if err := json.Unmarshal([]byte(r.out), &list); err != nil || len(list) != 1 || list[0].Ref != "mcpsh:docs" || r.errOut != "" {
		t.Errorf("--no-discover: %s %s", r.out, r.errOut)
	}
}

func TestServerFromAnyHost(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	// A project's server approved in Claude Code runs, and nothing is said.
	r, _ := run(t, env{vars: h.Env()}, "tools", "-s", "api")
	wantCode(t, r, ExitOK)
	contains(t, "tools -s api", r.out, "list_notes")
	if strings.Contains(r.errOut, "-s api") {
		t.Errorf("no clash, no note: %s", r.errOut)
	}
	// A clash: -s NAME takes the precedence and says so, with how to pick another.
	r, _ = run(t, env{vars: h.Env()}, "tools", "-s", "github")
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "mcpsh: -s github: using claude-code (~/.claude.json); also defined by claude-code ("+filepath.Join(h.Repo, ".mcp.json")+"), claude-desktop (",
		"-s claude-desktop:github picks claude-desktop's")
	// -s HOST:NAME picks explicitly.
	r, _ = run(t, env{vars: h.Env()}, "tools", "-s", "claude-desktop:github")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "/nonexistent/claude-desktop-github")
	r, _ = run(t, env{vars: h.Env()}, "tools", "-s", "cursor:github")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "http://127.0.0.1:9/cursor-github/mcp")
	// A project's server nobody approved starts when named, saying so.
	r, _ = run(t, env{vars: h.Env()}, "tools", "-s", "vscode:playwright")
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "mcpsh: -s vscode:playwright: using vscode ("+filepath.Join(h.Repo, ".vscode", "mcp.json")+"), held (a project's server not approved in vscode",
		"starting it because you named it")
	// Unusable and unknown servers are usage errors naming why.
	r, _ = run(t, env{vars: h.Env()}, "tools", "-s", "perplexity")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, "servers.perplexity.env.PERPLEXITY_API_KEY: ${input:perplexity-key} asks vscode to prompt")
	r, _ = run(t, env{vars: h.Env()}, "tools", "-s", "cursor:nope")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, "unknown server cursor:nope (cursor has: docs, github, notion)")
	// --no-discover: the other hosts' servers are not there.
	r, _ = run(t, env{vars: h.Env()}, "tools", "-s", "api", "--no-discover")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, `unknown server "api" (known: docs)`)
	// --untrusted tightens a discovered server too.
	r, _ = run(t, env{vars: h.Env()}, "call", "-s", "api", "list_notes", "--untrusted")
	wantCode(t, r, ExitRefused)
	for _, secret := range []string{"ghp_s3cretgithubtoken", "docs-s3cret-value"} {
		if strings.Contains(r.out+r.errOut, secret) {
			t.Errorf("output shows %q", secret)
		}
	}
}

// TestDiscoveredNamesAreSanitised: a cloned repository's .mcp.json names
// servers and commands; none of its bytes reach the terminal raw.
func TestDiscoveredNamesAreSanitised(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	os.WriteFile(filepath.Join(h.Repo, ".mcp.json"), []byte(`{"mcpServers": {"evil\u001b]0;pwned\u0007": {"command": "x\u001b[2J", "args": ["\u202eabc"]}}}`), 0o644)
	for _, tty := range []bool{false, true} {
		r, _ := run(t, env{vars: h.Env(), tty: tty}, "servers")
		wantCode(t, r, ExitOK)
		if strings.ContainsAny(r.out, "\x1b\u202e\a") && !tty || strings.Contains(r.out, "\x1b]0;") || strings.Contains(r.out, "\x1b[2J") || strings.Contains(r.out, "\u202e") {
			t.Errorf("tty=%v: raw control bytes in %q", tty, r.out)
		}
	}
	r, _ := run(t, env{vars: h.Env()}, "tools", "-s", "evil\x1b]0;pwned\x07")
	if strings.Contains(r.errOut, "\x1b]0;") {
		t.Errorf("stderr: %q", r.errOut)
	}
}
