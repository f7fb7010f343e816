package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/testenv"
)

// Servers from other hosts, end to end: the built binary run in a folder
// deep in a repository, with a HOME holding the config of every host mcpsh
// reads (config/testdata/hosts, written from each host's documentation).

// hostTree is that fixture installed for one test (testenv.InstallHosts),
// with the environment the binary runs in.
type hostTree struct {
	*testenv.Hosts
	env []string
}

func installHosts(t *testing.T) *hostTree {
	t.Helper()
	h := &hostTree{Hosts: testenv.InstallHosts(t, mcpshBin, "serve-demo")}
	h.env = []string{"XDG_STATE_HOME=" + filepath.Join(h.Root, "state")}
	for k, v := range h.Env() {
		h.env = append(h.env, k+"="+v)
	}
	return h
}

func (h *hostTree) mcpsh(t *testing.T, args ...string) result {
	t.Helper()
	return mcpsh(t, opts{env: h.env, dir: h.Cwd}, args...)
}

func TestServersFromOtherHosts(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	r := h.mcpsh(t, "servers", "--json")
	wantCode(t, r, 0)
	var list []struct {
		Name, Ref, Held string
		Winner          bool
		AlsoIn          []string
		Origin          struct{ Host, Scope, File, Key string }
	}
	if err := json.Unmarshal([]byte(r.out), &list); err != nil {
		t.Fatal(err, r.out)
	}
	var refs []string
	for _, s := range list {
		refs = append(refs, s.Ref+"/"+s.Origin.Scope)
		if s.Name == "github" && s.Winner != (s.Ref == "claude-code:github" && s.Origin.Scope == "user") {
			t.Errorf("github winner: %+v", s)
		}
	}
	for _, want := range []string{"mcpsh:docs/own", "claude-code:local-db/local", "claude-code:api/project", "claude-code:nearby/project",
		"cursor:docs/project", "vscode:playwright/project", "gemini:pythonTools/project", "claude-code:github/user",
		"claude-desktop:filesystem/user", "cursor:github/user", "vscode:memory/user", "windsurf:figma/user", "codex:context7/user"} {
		if !slices.Contains(refs, want) {
			t.Errorf("servers --json lacks %s: %v", want, refs)
		}
	}
	if slices.ContainsFunc(refs, func(r string) bool { return strings.Contains(r, "elsewhere") }) {
		t.Errorf("another project's servers were read: %v", refs)
	}
	warn := filepath.Join(h.Home, ".gemini", "settings.json") + ":5:5:"
	if strings.Count(r.errOut, "mcpsh: warning:") != 1 || !strings.Contains(r.errOut, warn) {
		t.Errorf("stderr:\n%s\nwant one warning naming %s", r.errOut, warn)
	}

	// -s NAME by precedence, saying which; the server runs.
	r = h.mcpsh(t, "call", "-s", "github", "list_notes")
	wantCode(t, r, 0)
	contains(t, "stderr", r.errOut, "mcpsh: -s github: using claude-code (~/.claude.json)", "-s claude-desktop:github picks")
	contains(t, "stdout", r.out, "Welcome to mcpsh")
	// -s HOST:NAME picks explicitly.
	r = h.mcpsh(t, "tools", "-s", "claude-desktop:github")
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "/nonexistent/claude-desktop-github")
	// A project's server nobody approved runs when named, in the project's folder.
	r = h.mcpsh(t, "tools", "-s", "playwright", "--json")
	wantCode(t, r, 0)
	contains(t, "stderr", r.errOut, "held (a project's server not approved in vscode", "starting it because you named it")
	// An approved one says nothing.
	r = h.mcpsh(t, "tools", "-s", "claude-code:api")
	wantCode(t, r, 0)
	if strings.Contains(r.errOut, "-s claude-code:api") {
		t.Errorf("stderr: %s", r.errOut)
	}
	r = h.mcpsh(t, "tools", "-s", "perplexity")
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, "${input:perplexity-key} asks vscode to prompt")

	// --no-discover and "discover": false: mcpsh's own file only.
	r = h.mcpsh(t, "servers", "--no-discover")
	wantCode(t, r, 0)
	if ls := strings.Split(strings.TrimSpace(r.out), "\n"); len(ls) != 1 || !strings.HasPrefix(ls[0], "docs\tstdio") || r.errOut != "" {
		t.Errorf("--no-discover: %q %q", r.out, r.errOut)
	}
	own := h.Own
	b, _ := os.ReadFile(own)
	os.WriteFile(own, []byte(strings.Replace(string(b), `"mcpServers"`, `"discover": false, "mcpServers"`, 1)), 0o644)
	r = h.mcpsh(t, "tools", "-s", "api")
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, `unknown server "api" (known: docs)`)

	for _, secret := range []string{"ghp_s3cretgithubtoken", "docs-s3cret-value"} {
		for _, args := range [][]string{{"servers"}, {"servers", "--json"}} {
			if r := h.mcpsh(t, args...); strings.Contains(r.out+r.errOut, secret) {
				t.Errorf("%v shows %q", args, secret)
			}
		}
	}
}

// TestWorkspaceShowsOrigins opens bare mcpsh in a terminal, in a project
// whose servers come from three hosts: the picker (W) says where each came
// from, and the project's server nobody approved is listed as held.
func TestWorkspaceShowsOrigins(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	home, repo := filepath.Join(root, "home"), filepath.Join(root, "repo")
	demo := fmt.Sprintf(`{"command": %q, "args": ["serve-demo"]}`, mcpshBin)
	for path, body := range map[string]string{
		filepath.Join(root, "own.json"):                   `{"mcpServers": {"notes": ` + demo + `}}`,
		filepath.Join(home, ".cursor", "mcp.json"):        `{"mcpServers": {"shared": ` + demo + `}}`,
		filepath.Join(repo, ".vscode", "mcp.json"):        `{"servers": {"playwright": ` + demo + `}}`,
		filepath.Join(repo, ".git", "HEAD"):               "ref: refs/heads/main\n",
		filepath.Join(home, ".codex", "config.toml"):      "[mcp_servers.broken]\ncommand = 7\n",
		filepath.Join(root, "state", "mcpsh", ".keep"):    "",
		filepath.Join(home, ".config", "Claude", ".keep"): "",
	} {
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(body), 0o644)
	}
	stderr := filepath.Join(root, "stderr")
	shell := fmt.Sprintf("cd %s && HOME=%s XDG_CONFIG_HOME=%s XDG_STATE_HOME=%s TERM=xterm-256color %s --config %s 2>%s; sleep 30",
		repo, home, filepath.Join(home, ".config"), filepath.Join(root, "state"), mcpshBin, filepath.Join(root, "own.json"), stderr)
	x.run("new-session", "-d", "-s", "t", "-x", "140", "-y", "30", shell)
	// The sidebar: the servers used, a project's server held, a broken entry.
	x.waitFor("notes", "shared", "17 tools", "playwright", "held: a", "broken", "✗ unusable")
	x.keys("W")
	s := x.waitFor("type to narrow by name", "· cursor (~/.cursor/mcp.json)", "· codex (~/.codex/config.toml)")
	if !strings.Contains(s, "· vscode (") { // the path may be cut to fit
		t.Errorf("the picker does not say where playwright came from:\n%s", s)
	}
	x.keys("Escape", "q")
}

// mcpsh proxy config end to end: the built binary writes itself, by its own
// path, into a host's entry; reads the entry back as the server it proxies
// (so -s talks to that server, not to a proxy); and puts the file back.
func TestProxyConfigWritesItselfIntoAHostsEntry(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	path := filepath.Join(h.Home, ".claude.json")
	before, _ := os.ReadFile(path)
	r := h.mcpsh(t, "proxy", "config", "claude-code:github", "--write", "--yes")
	wantCode(t, r, 0)
	var file struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `json:"mcpServers"`
	}
	after, _ := os.ReadFile(path)
	if err := json.Unmarshal(after, &file); err != nil {
		t.Fatal(err)
	}
	gh := file.MCPServers["github"]
	ci, cerr := os.Stat(gh.Command)
	bi, _ := os.Stat(mcpshBin)
	if cerr != nil || !os.SameFile(ci, bi) || !slices.Equal(gh.Args, []string{"proxy", "--as", "claude-code:github", "--", mcpshBin, "serve-demo"}) {
		t.Fatalf("the entry: %+v (%v)", gh, cerr)
	}
	r = h.mcpsh(t, "call", "-s", "claude-code:github", "list_notes")
	wantCode(t, r, 0)
	contains(t, "stdout", r.out, "Welcome to mcpsh")
	r = h.mcpsh(t, "servers")
	contains(t, "servers", r.out, "github\tstdio\t"+mcpshBin+" serve-demo\tfrom claude-code (~/.claude.json); through mcpsh proxy")
	r = h.mcpsh(t, "proxy", "config", "claude-code:github", "--undo", "--yes")
	wantCode(t, r, 0)
	if now, _ := os.ReadFile(path); string(now) != string(before) {
		t.Errorf("undone:\n%s", now)
	}
}
