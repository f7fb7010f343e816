package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpsh/mcpsh/policy"
)

// hostTree is testdata/hosts installed in a temporary folder.
type hostTree struct {
	root, home, appData, repo, cwd, own string
	env                                 map[string]string
}

// installHosts copies testdata/hosts into a temporary folder, filling in its
// placeholders (see its README), with demo as the demo server's command line.
func installHosts(t testing.TB, demo ...string) *hostTree {
	t.Helper()
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r // macOS's /var is /private/var, which os.Getwd reports
	}
	h := &hostTree{root: root, home: filepath.Join(root, "home"), appData: filepath.Join(root, "appdata"),
		repo: filepath.Join(root, "repo"), own: filepath.Join(root, "own", "config.json")}
	h.cwd = filepath.Join(h.repo, "sub", "dir")
	q := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	if len(demo) == 0 {
		demo = []string{"/nonexistent/demo"}
	}
	repl := strings.NewReplacer("@REPO@", q(h.repo), "@DEMO@", q(demo[0]), "@DEMOARGS@", q(append([]string{}, demo[1:]...)))
	src := filepath.Join("testdata", "hosts")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "README.md" {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, []byte(repl.Replace(string(data))), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(h.repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.env = map[string]string{
		"HOME": h.home, "USERPROFILE": h.home, "APPDATA": h.appData, "XDG_CONFIG_HOME": h.appData,
		"GITHUB_TOKEN": "ghp_s3cretgithubtoken", "DB_CONNECTION_STRING": "postgres://u:pw@db/x",
	}
	return h
}

// discover runs Discover over the tree as on Linux (appdata is XDG_CONFIG_HOME).
func (h *hostTree) discover(t testing.TB, off bool) *Catalog {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fixture is read as on Linux, with Unix paths; internal/cli and internal/e2e read it natively")
	}
	own, err := Load(h.own, envOf(h.env))
	if err != nil {
		t.Fatal(err)
	}
	return Discover(Discovery{Own: own, Getenv: envOf(h.env), Dir: h.cwd, GOOS: "linux", Off: off})
}

// byRef finds a server by HOST:NAME and scope ("" for any), failing the test when absent.
func byRef(t *testing.T, c *Catalog, ref string, scope Scope) *Server {
	t.Helper()
	for _, s := range c.Servers {
		if s.Ref() == ref && (scope == "" || s.Origin.Scope == scope) {
			return s
		}
	}
	t.Fatalf("no server %s (%s) among %v", ref, scope, refs(c.Servers))
	return nil
}

func refs(servers []*Server) []string {
	var out []string
	for _, s := range servers {
		out = append(out, s.Ref()+"/"+string(s.Origin.Scope))
	}
	return out
}

func TestDiscoverEveryHost(t *testing.T) {
	h := installHosts(t)
	c := h.discover(t, false)

	// Precedence: mcpsh's own, Claude Code's local servers, the project's
	// files nearest first, then the user's in Hosts order.
	want := []string{
		"mcpsh:docs/own",
		"claude-code:local-db/local",
		"claude-code:nearby/project",
		"claude-code:api/project", "claude-code:github/project", "claude-code:legacy/project",
		"cursor:docs/project",
		"vscode:fetch/project", "vscode:playwright/project",
		"gemini:httpServer/project", "gemini:pythonTools/project", "gemini:sseServer/project",
		"claude-code:github/user", "claude-code:sentry/user",
		"claude-desktop:filesystem/user", "claude-desktop:github/user",
		"cursor:github/user", "cursor:notion/user",
		"vscode:memory/user", "vscode:perplexity/user",
		"windsurf:figma/user",
		"codex:context7/user", "codex:figma/user", "codex:retired/user",
	}
	got := refs(c.Servers)
	// Within one file servers come in the file's order; compare as sets per file.
	if d := cmp.Diff(sortedWithin(want), sortedWithin(got)); d != "" {
		t.Errorf("servers (-want +got):\n%s", d)
	}
	if c.Root != h.repo {
		t.Errorf("root %q, want %q", c.Root, h.repo)
	}

	// The malformed file is one warning, with its line and column; the
	// rest is used all the same.
	if len(c.Warnings) != 1 {
		t.Fatalf("warnings %v, want the one malformed file", c.Warnings)
	}
	w := c.Warnings[0]
	if w.File != filepath.Join(h.home, ".gemini", "settings.json") || w.Line != 5 || w.Col != 5 {
		t.Errorf("warning %q, want ~/.gemini/settings.json:5:5", w)
	}

	// A clash: the project's github is not approved, so Claude Code's user
	// server wins over it, Claude Desktop's and Cursor's.
	s, others, err := c.Resolve("github")
	if err != nil || s.Origin.Host != HostClaudeCode || s.Origin.Scope != ScopeUser {
		t.Fatalf("-s github: %v %v, want claude-code's user server", s.Origin, err)
	}
	if d := cmp.Diff([]string{"claude-code:github/project", "claude-desktop:github/user", "cursor:github/user"}, refs(others)); d != "" {
		t.Errorf("github's others (-want +got):\n%s", d)
	}
	if s.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "ghp_s3cretgithubtoken" || !slices.Contains(s.Secrets, "ghp_s3cretgithubtoken") {
		t.Errorf("claude-code github: env %v secrets %v", s.Env, s.Secrets)
	}
	// -s HOST:NAME picks explicitly.
	s, _, _ = c.Resolve("cursor:github")
	if s.Transport != HTTP || s.URL != "http://127.0.0.1:9/cursor-github/mcp" || s.Headers["Authorization"] != "Bearer ghp_s3cretgithubtoken" {
		t.Errorf("cursor:github = %+v", s)
	}
	if s.Trust != policy.Untrusted { // mcpsh's "trust": {"cursor:*": "untrusted"}
		t.Errorf("cursor:github trust %q, want untrusted by mcpsh's config", s.Trust)
	}
	s, _, _ = c.Resolve("claude-desktop:github")
	if s.Command != "/nonexistent/claude-desktop-github" || s.Args[0] != "${GITHUB_TOKEN}" || s.Err != nil {
		t.Errorf("Claude Desktop expands nothing: %+v", s)
	}
	// mcpsh's own file wins a clash.
	s, others, _ = c.Resolve("docs")
	if s.Origin.Host != HostMcpsh || len(others) != 1 || others[0].Origin.Host != HostCursor {
		t.Errorf("docs: %v, others %v", s.Origin, refs(others))
	}
	// Cursor's docs: ${workspaceFolder} is the folder holding .cursor, and
	// its envFile fills env.
	cd := byRef(t, c, "cursor:docs", ScopeProject)
	if cd.Command != filepath.Join(h.repo, "bin", "docs-server") || cd.Env["DOCS_TOKEN"] != "docs-s3cret-value" || cd.Env["REGION"] != "eu-west-1" {
		t.Errorf("cursor docs: command %q env %v", cd.Command, cd.Env)
	}
	if !slices.Contains(cd.Secrets, "docs-s3cret-value") || cd.Cwd != h.repo {
		t.Errorf("cursor docs: secrets %v cwd %q", cd.Secrets, cd.Cwd)
	}

	// Approvals and disabled entries.
	held := map[string]string{}
	for _, s := range c.Servers {
		if s.Origin.Held != "" {
			held[s.Ref()+"/"+string(s.Origin.Scope)] = s.Origin.Held
		}
	}
	for ref, part := range map[string]string{
		"claude-code:github/project": "not approved in claude-code",
		"claude-code:nearby/project": "not approved in claude-code",
		"claude-code:legacy/project": "disabledMcpjsonServers",
		"cursor:docs/project":        "not approved in cursor",
		"vscode:playwright/project":  "not approved in vscode",
		"vscode:fetch/project":       "not approved in vscode",
		"gemini:sseServer/project":   "mcp.excluded",
		"cursor:notion/user":         `"disabled": true`,
		"codex:retired/user":         "enabled = false",
	} {
		if !strings.Contains(held[ref], part) {
			t.Errorf("%s held %q, want it to say %q", ref, held[ref], part)
		}
		delete(held, ref)
	}
	if len(held) > 0 {
		t.Errorf("held as well: %v", held)
	}
	// A held server is still named explicitly.
	s, _, err = c.Resolve("playwright")
	if err != nil || s.Origin.Host != HostVSCode || s.Cwd != h.repo {
		t.Errorf("-s playwright: %+v %v", s, err)
	}
	// The active servers: one per name, none held.
	var active []string
	for _, s := range c.Active() {
		active = append(active, s.Ref())
	}
	wantActive := []string{"claude-code:api", "codex:context7", "mcpsh:docs", "windsurf:figma", "claude-desktop:filesystem",
		"claude-code:github", "gemini:httpServer", "claude-code:local-db", "vscode:memory", "vscode:perplexity", "gemini:pythonTools", "claude-code:sentry"}
	if d := cmp.Diff(wantActive, active); d != "" {
		t.Errorf("active (-want +got):\n%s", d)
	}
}

// sortedWithin sorts the entries of each file's run, keeping the order of
// the files: servers of one file come in the file's order, which the test
// does not fix.
func sortedWithin(refs []string) []string {
	out := slices.Clone(refs)
	file := func(r string) string {
		h, _, _ := strings.Cut(r, ":")
		_, scope, _ := strings.Cut(r, "/")
		return h + scope
	}
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && file(out[j]) == file(out[i]) {
			j++
		}
		slices.Sort(out[i:j])
		i = j
	}
	return out
}

func TestDiscoverHostRules(t *testing.T) {
	h := installHosts(t)
	c := h.discover(t, false)

	api := byRef(t, c, "claude-code:api", ScopeProject)
	if api.Env["API_KEY"] != "dev-key" || api.Err != nil || api.Origin.Held != "" {
		t.Errorf("api: ${API_KEY:-dev-key} gives %q, err %v held %q", api.Env["API_KEY"], api.Err, api.Origin.Held)
	}
	local := byRef(t, c, "claude-code:local-db", ScopeLocal)
	if local.Args[1] != "postgres://localhost/dev" || local.Cwd != h.repo || local.Origin.Project != h.repo {
		t.Errorf("local-db: args %q cwd %q", local.Args, local.Cwd)
	}
	for _, s := range c.Servers {
		if s.Name == "elsewhere" {
			t.Errorf("another project's local server was read: %v", s.Origin)
		}
	}
	sentry := byRef(t, c, "claude-code:sentry", ScopeUser)
	if sentry.Headers["Authorization"] != "Bearer none" {
		t.Errorf("sentry: ${SENTRY_TOKEN:-none} gives %q", sentry.Headers["Authorization"])
	}

	// VS Code: ${input:...} makes the server unusable, naming the input.
	px := byRef(t, c, "vscode:perplexity", ScopeUser)
	if px.Err == nil || !strings.Contains(px.Err.Error(), "${input:perplexity-key} asks vscode to prompt") {
		t.Errorf("perplexity: %v", px.Err)
	}
	mem := byRef(t, c, "vscode:memory", ScopeUser)
	if mem.Env["MEMORY_FILE_PATH"] != filepath.Join(h.home, "memory.json") || mem.Cwd != "" {
		t.Errorf("memory: ${userHome}${/} gives %q; cwd %q", mem.Env["MEMORY_FILE_PATH"], mem.Cwd)
	}

	// Windsurf: serverUrl; an unset ${env:} is the server's problem, named by the host's key.
	fig := byRef(t, c, "windsurf:figma", ScopeUser)
	if fig.Transport != HTTP || fig.URL != "http://127.0.0.1:9/windsurf-figma/mcp" {
		t.Errorf("windsurf figma: %s %q", fig.Transport, fig.URL)
	}
	if fig.Err == nil || !strings.Contains(fig.Err.Error(), "headers.Authorization: ${env:FIGMA_TOKEN} is not set") {
		t.Errorf("windsurf figma: %v", fig.Err)
	}

	// Codex: TOML, bearer_token_env_var, http_headers, enabled, tool_timeout_sec.
	cx := byRef(t, c, "codex:context7", ScopeUser)
	if cx.Command != "npx" || cx.Env["LOG_LEVEL"] != "info" || len(cx.Args) != 2 {
		t.Errorf("codex context7: %+v", cx)
	}
	cf := byRef(t, c, "codex:figma", ScopeUser)
	if cf.Transport != HTTP || cf.Headers["X-Figma-Region"] != "us-east-1" || cf.Timeout != 30*time.Second {
		t.Errorf("codex figma: %+v", cf)
	}
	if cf.Err == nil || !strings.Contains(cf.Err.Error(), "bearer_token_env_var: $FIGMA_OAUTH_TOKEN is not set") {
		t.Errorf("codex figma: %v", cf.Err)
	}

	// Gemini: $VAR and ${VAR}, httpUrl is HTTP, url is SSE, timeout in ms,
	// a relative cwd from the project's folder.
	py := byRef(t, c, "gemini:pythonTools", ScopeProject)
	if py.Env["DATABASE_URL"] != "postgres://u:pw@db/x" || py.Timeout != 15*time.Second ||
		py.Cwd != filepath.Join(h.repo, "mcp-servers", "python") {
		t.Errorf("pythonTools: %v %v %q", py.Env, py.Timeout, py.Cwd)
	}
	if py.Err == nil || !strings.Contains(py.Err.Error(), "${EXTERNAL_API_KEY} is not set") {
		t.Errorf("pythonTools: %v", py.Err)
	}
	if s := byRef(t, c, "gemini:httpServer", ScopeProject); s.Transport != HTTP || s.Origin.Held != "" {
		t.Errorf("httpServer: %s, held %q (the folder is trusted in trustedFolders.json)", s.Transport, s.Origin.Held)
	}
	if s := byRef(t, c, "gemini:sseServer", ScopeProject); s.Transport != SSE {
		t.Errorf("sseServer: %s", s.Transport)
	}
}

func TestDiscoverOff(t *testing.T) {
	h := installHosts(t)
	for _, c := range []*Catalog{h.discover(t, true), func() *Catalog {
		own, _ := Load(h.own, envOf(h.env))
		own.NoDiscover = true
		return Discover(Discovery{Own: own, Getenv: envOf(h.env), Dir: h.cwd, GOOS: "linux"})
	}()} {
		if got := refs(c.Servers); !slices.Equal(got, []string{"mcpsh:docs/own"}) || len(c.Warnings) > 0 {
			t.Errorf("discovery off: %v, warnings %v", got, c.Warnings)
		}
	}
}

func TestDiscoverOutsideRepository(t *testing.T) {
	h := installHosts(t)
	if err := os.RemoveAll(filepath.Join(h.repo, ".git")); err != nil {
		t.Fatal(err)
	}
	// Without a repository only the working directory's own files count:
	// repo/sub/dir has none, so nothing of the project is read.
	c := h.discover(t, false)
	for _, s := range c.Servers {
		if s.Origin.Scope == ScopeProject || s.Origin.Scope == ScopeLocal {
			t.Errorf("outside a repository, %s was read from %s", s.Ref(), s.Origin.File)
		}
	}
	h.cwd = h.repo
	c = h.discover(t, false)
	if s := byRef(t, c, "claude-code:api", ScopeProject); s.Origin.File != filepath.Join(h.repo, ".mcp.json") {
		t.Errorf("api from %s", s.Origin.File)
	}
	// Working in HOME, ~/.cursor/mcp.json is the user's file, read once.
	h.cwd = h.home
	c = h.discover(t, false)
	if got := len(c.Named("notion")); got != 1 || c.Named("notion")[0].Origin.Scope != ScopeUser {
		t.Errorf("in HOME, notion is found %d times: %v", got, refs(c.Named("notion")))
	}
}

func TestDiscoverUnreadable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("FIFOs")
	}
	h := installHosts(t)
	// A FIFO where a config belongs would block a plain open for ever.
	fifo := filepath.Join(h.repo, ".mcp.json")
	os.Remove(fifo)
	if err := mkfifo(fifo); err != nil {
		t.Skip("no mkfifo:", err)
	}
	// A folder where a file belongs.
	os.Remove(filepath.Join(h.repo, ".vscode", "mcp.json"))
	os.Mkdir(filepath.Join(h.repo, ".vscode", "mcp.json"), 0o755)
	done := make(chan *Catalog)
	go func() { done <- h.discover(t, false) }()
	var c *Catalog
	select {
	case c = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("discovery blocked on a FIFO")
	}
	var msgs []string
	for _, w := range c.Warnings {
		msgs = append(msgs, w.Error())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{fifo + ": is not a regular file", filepath.Join(h.repo, ".vscode", "mcp.json") + ": is a directory"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings:\n%s\nwant %q", joined, want)
		}
	}
	byRef(t, c, "cursor:docs", ScopeProject) // the others are read
}

func TestResolveErrors(t *testing.T) {
	h := installHosts(t)
	c := h.discover(t, false)
	for ref, want := range map[string]string{
		"nope":          `unknown server "nope" (known: api, context7,`,
		"cursor:nope":   "unknown server cursor:nope (cursor has: docs, github, notion)",
		"gemini:broken": "unknown server gemini:broken (gemini has: httpServer, pythonTools, sseServer)",
	} {
		_, _, err := c.Resolve(ref)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q) = %v, want %q", ref, err, want)
		}
	}
	// An unknown prefix is part of the name.
	if _, _, err := c.Resolve("nohost:x"); err == nil || !strings.Contains(err.Error(), `unknown server "nohost:x"`) {
		t.Errorf("nohost:x: %v", err)
	}
}

func TestOwnDiscoverAndTrustKeys(t *testing.T) {
	f, err := Parse("c.json", []byte(`{"discover": false, "trust": {"github": "untrusted", "codex:*": "untrusted"}, "mcpServers": {}}`), nil)
	if err != nil || !f.NoDiscover || !slices.Equal(f.Untrust, []string{"github", "codex:*"}) {
		t.Fatalf("%+v %v", f, err)
	}
	for src, want := range map[string]string{
		`{"discover": "no"}`:                    "c.json: discover: want true or false, got a string",
		`{"trust": {"github": "trusted"}}`:      `c.json: trust.github: only "untrusted" can be set here`,
		`{"trust": {"github": "maybe"}}`:        "c.json: trust.github:",
		`{"trust": {"cursor:": "untrusted"}}`:   "want a server's NAME, HOST:NAME or HOST:*",
		`{"trust": {"a": "untrusted", "a": 1}}`: "c.json: trust.a: duplicate key",
	} {
		if _, err := Parse("c.json", []byte(src), nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	s := func(h Host, name string) *Server {
		return &Server{Name: name, Trust: policy.Trusted, Origin: Origin{Host: h}}
	}
	servers := []*Server{s(HostCursor, "github"), s(HostCodex, "x"), s(HostMcpsh, "y"), s(HostGemini, "z")}
	applyUntrust([]string{"github", "codex:*", "mcpsh:y"}, servers)
	var got []policy.Trust
	for _, s := range servers {
		got = append(got, s.Trust)
	}
	if !slices.Equal(got, []policy.Trust{policy.Untrusted, policy.Untrusted, policy.Untrusted, policy.Trusted}) {
		t.Errorf("trust after overrides: %v", got)
	}
}
