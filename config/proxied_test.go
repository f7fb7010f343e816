package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A host's entry that runs mcpsh proxy is read as the server it proxies,
// in every host's dialect, Codex's TOML included.
func TestProxyEntryIsReadAsItsTarget(t *testing.T) {
	env := envOf(map[string]string{"GH": "ghp_s3cretgithubtoken", "FIGMA_OAUTH_TOKEN": "figma-s3cret-token", "EMPTY": ""})
	parse := func(h Host, src string) *Server {
		t.Helper()
		servers, err := ReadHostFile(HostFile{Host: h, Scope: ScopeUser, Path: "/f", Home: "/home/u"}, []byte(src), env)
		if err != nil || len(servers) != 1 {
			t.Fatalf("%s: %v %v", h, servers, err)
		}
		return servers[0]
	}

	// stdio: the command after "--", with the entry's env and cwd.
	s := parse(HostCursor, `{"mcpServers": {"github": {
		"command": "/usr/local/bin/mcpsh",
		"args": ["proxy", "--as", "cursor:github", "--untrusted", "--retries", "3", "--", "npx", "-y", "@mcp/server-github", "--token", "${env:GH}"],
		"env": {"GITHUB_TOKEN": "${env:GH}"}, "cwd": "/w", "disabled": true}}}`)
	if !s.Proxied || s.ProxyAs != "cursor:github" || s.Err != nil || s.Transport != Stdio || s.Command != "npx" ||
		!slices.Equal(s.Args, []string{"-y", "@mcp/server-github", "--token", "ghp_s3cretgithubtoken"}) ||
		s.Env["GITHUB_TOKEN"] != "ghp_s3cretgithubtoken" || s.Cwd != "/w" || s.Origin.Held == "" {
		t.Errorf("stdio: %+v", s)
	}
	if s.CommandShown != "npx" || !slices.Equal(s.ArgsShown, []string{"-y", "@mcp/server-github", "--token", "${env:GH}"}) {
		t.Errorf("stdio shown: %q %q", s.CommandShown, s.ArgsShown)
	}

	// HTTP: the header's value comes from the entry's env, as the host
	// gives it to the proxy; an unset one sends no header.
	s = parse(HostVSCode, `{"servers": {"api": {"type": "stdio", "command": "C:\\Tools\\MCPSH.EXE",
		"args": ["proxy", "--as=vscode:api", "--url", "https://api.example.com/mcp", "--header-env", "Authorization=MCPSH_HEADER_1", "--header-env=X-Empty=EMPTY"],
		"env": {"MCPSH_HEADER_1": "Bearer ${env:GH}"}}}}`)
	if !s.Proxied || s.ProxyAs != "vscode:api" || s.Err != nil || s.Transport != HTTP || s.URL != "https://api.example.com/mcp" ||
		len(s.Headers) != 1 || s.Headers["Authorization"] != "Bearer ghp_s3cretgithubtoken" || s.Env != nil || s.Command != "" || s.Args != nil || s.ArgsShown != nil {
		t.Errorf("http: %+v", s)
	}
	if !slices.Contains(s.Secrets, "Bearer ghp_s3cretgithubtoken") || slices.Contains(s.Secrets, "MCPSH_HEADER_1") {
		t.Errorf("a header's value is a secret, its variable's name is not: %q", s.Secrets)
	}

	// Codex: --bearer-env and --header-env read mcpsh's environment when
	// the entry's env does not set them (Codex passes env_vars through).
	s = parse(HostCodex, `[mcp_servers.figma]
command = "/opt/mcpsh/mcpsh"
args = ["proxy", "--as", "codex:figma", "--sse", "https://figma.example.com/sse", "--bearer-env", "FIGMA_OAUTH_TOKEN", "--header-env", "X-Figma-Region=MCPSH_HEADER_1"]
env_vars = ["FIGMA_OAUTH_TOKEN"]
tool_timeout_sec = 30

[mcp_servers.figma.env]
MCPSH_HEADER_1 = "us-east-1"
`)
	if !s.Proxied || s.Err != nil || s.Transport != SSE || s.Headers["Authorization"] != "Bearer figma-s3cret-token" ||
		s.Headers["X-Figma-Region"] != "us-east-1" || s.Timeout.Seconds() != 30 || slices.Contains(s.Secrets, "FIGMA_OAUTH_TOKEN") {
		t.Errorf("codex: %+v %v", s, s.Err)
	}

	// Not mcpsh, or not its proxy command: read as it is.
	for _, src := range []string{
		`{"mcpServers": {"a": {"command": "/bin/mcpsh-helper", "args": ["proxy", "--", "x"]}}}`,
		`{"mcpServers": {"a": {"command": "mcpsh", "args": ["serve-demo"]}}}`,
		`{"mcpServers": {"a": {"command": "mcpsh"}}}`,
	} {
		if s := parse(HostClaudeDesktop, src); s.Proxied || s.Err != nil {
			t.Errorf("%s: %+v", src, s)
		}
	}
}

// A proxy entry mcpsh cannot read is a problem of that server, and it
// stays Proxied: it is never started as a proxy of itself.
func TestProxyEntryProblems(t *testing.T) {
	for args, want := range map[string]string{
		`["proxy"]`:                                                        "mcpServers.a.args: runs mcpsh proxy with no server",
		`["proxy", "--as", "x:a", "--"]`:                                   "nothing after --",
		`["proxy", "-s", "cursor:a"]`:                                      "runs mcpsh proxy -s cursor:a: mcpsh reads the server a proxy entry stands for only from -- COMMAND, --url or --sse",
		`["proxy", "--url", "https://h/mcp", "--", "x"]`:                   "more than one server (-- COMMAND and --url)",
		`["proxy", "stray", "--", "x"]`:                                    `mcpServers.a.args[1]: mcpsh proxy takes no argument "stray" before --`,
		`["proxy", "--url", "ftp://h"]`:                                    `mcpServers.a.args[2]: "ftp://h" is not an absolute http or https URL`,
		`["proxy", "--url", "https://h", "--bearer-env", "NOPE"]`:          "--bearer-env NOPE: $NOPE is not set",
		`["proxy", "--url", "https://h", "--header-env", "Authorization"]`: `--header-env "Authorization": want NAME=VARIABLE`,
		`["proxy", "--demo"]`:                                              "runs mcpsh proxy --demo",
		`["proxy", "--as"]`:                                                "--as needs a value",
	} {
		servers, err := ReadHostFile(HostFile{Host: HostClaudeCode, Scope: ScopeProject, Path: "/r/.mcp.json", Project: "/r"},
			[]byte(`{"mcpServers": {"a": {"command": "mcpsh", "args": `+args+`}}}`), nil)
		if err != nil || len(servers) != 1 {
			t.Fatalf("%s: %v", args, err)
		}
		s := servers[0]
		if !s.Proxied || s.Err == nil || !strings.Contains(s.Err.Error(), want) {
			t.Errorf("%s: proxied %v, err %v; want %q", args, s.Proxied, s.Err, want)
		}
	}
}

func TestIsMcpsh(t *testing.T) {
	for cmd, want := range map[string]bool{"mcpsh": true, "/usr/local/bin/mcpsh": true, `C:\bin\mcpsh.exe`: true, "MCPSH.EXE": true,
		"mcpsh2": false, "/bin/sh": false, "": false, "mcpsh/x": false} {
		if IsMcpsh(cmd) != want {
			t.Errorf("IsMcpsh(%q) = %v", cmd, !want)
		}
	}
}

// Discovery unwraps a proxy entry where it finds it: -s picks the server
// itself, and it keeps its place among the others.
func TestDiscoverProxiedEntry(t *testing.T) {
	h := installHosts(t)
	path := filepath.Join(h.home, ".cursor", "mcp.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"github": {"command": "/usr/bin/mcpsh",
		"args": ["proxy", "--as", "cursor:github", "--url", "http://127.0.0.1:9/cursor-github/mcp", "--header-env", "Authorization=MCPSH_HEADER_1"],
		"env": {"MCPSH_HEADER_1": "Bearer ${env:GITHUB_TOKEN}"}}}}`), 0o644)
	c := h.discover(t, false)
	s, _, err := c.Resolve("cursor:github")
	if err != nil || !s.Proxied || s.Transport != HTTP || s.URL != "http://127.0.0.1:9/cursor-github/mcp" ||
		s.Headers["Authorization"] != "Bearer ghp_s3cretgithubtoken" || s.Key != "mcpServers.github" || s.Origin.File != path {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestEntrySpan(t *testing.T) {
	src := "\ufeff// head\n{\n  \"servers\": { /* c */ \"a\": {\"command\": \"x\",}, \"b\": 1 },\n  \"projects\": {\"/d\": {\"mcpServers\": {\"z\": {}}}},\n}\n"
	data := []byte(src)
	m, err := EntrySpan("f.json", data, []string{"servers", "a"})
	if err != nil || string(data[m.Start:m.End]) != `{"command": "x",}` || string(data[m.NameStart:m.NameStart+3]) != `"a"` {
		t.Fatalf("%+v %v", m, err)
	}
	if m, err := EntrySpan("f.json", data, []string{"projects", "/d", "mcpServers", "z"}); err != nil || string(data[m.Start:m.End]) != "{}" {
		t.Errorf("%+v %v", m, err)
	}
	for _, tt := range []struct {
		src  string
		path []string
		want string
	}{
		{src, []string{"servers", "c"}, "f.json: servers.c: not in the file"},
		{src, []string{"projects", "/e", "mcpServers", "z"}, "f.json: projects[/e]: not in the file"},
		{src, []string{"servers", "b", "x"}, "f.json: servers.b: want an object, got a number"},
		{`{"servers": {"a": 1, "a": 2}}`, []string{"servers", "a"}, "f.json: servers.a: duplicate key"},
		{"{\n  \"servers\": {\"a\": 1\n}", []string{"servers", "a"}, "f.json:3:2: unexpected end of JSON input"},
		{"[1]", []string{"servers"}, "f.json: want an object at the top level, got an array"},
		{"// nothing\n", []string{"servers"}, "f.json: holds no JSON object"},
	} {
		_, err := EntrySpan("f.json", []byte(tt.src), tt.path)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q %q: %v, want %q", tt.src, tt.path, err, tt.want)
		}
	}
	_, err = EntrySpan("f.json", data, []string{"servers", "c"})
	if !errors.Is(err, ErrNoEntry) {
		t.Errorf("a missing key wraps ErrNoEntry: %v", err)
	}
}

// ReadHostFile reads every project of ~/.claude.json, not only the
// working folder's.
func TestReadHostFileClaudeProjects(t *testing.T) {
	src := `{"mcpServers": {"u": {"command": "u"}}, "projects": {"/p1": {"mcpServers": {"a": {"command": "a"}}}, "/p2": {"mcpServers": {}}, "/p3": {"mcpServers": {"b": {"type": "http", "url": "https://b"}}}}}`
	servers, err := ReadHostFile(HostFile{Host: HostClaudeCode, Scope: ScopeUser, Path: "/h/.claude.json", Home: "/h"}, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range servers {
		got = append(got, string(s.Origin.Scope)+":"+s.Origin.Project+":"+s.Key)
	}
	want := []string{"user::mcpServers.u", "local:" + filepath.FromSlash("/p1") + ":projects[" + filepath.FromSlash("/p1") + "].mcpServers.a",
		"local:" + filepath.FromSlash("/p3") + ":projects[" + filepath.FromSlash("/p3") + "].mcpServers.b"}
	if !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestUntrustsRef(t *testing.T) {
	f := &File{Untrust: []string{"cursor:*", "codex:figma", "plain"}}
	for ref, want := range map[string]bool{"cursor:github": true, "codex:figma": true, "codex:other": false, "plain": true,
		"mcpsh:plain": true, "gemini:plain": true, "odd:plain": false} {
		if f.UntrustsRef(ref) != want {
			t.Errorf("UntrustsRef(%q) = %v", ref, !want)
		}
	}
	if (*File)(nil).UntrustsRef("x") {
		t.Error("a nil file untrusts nothing")
	}
}
