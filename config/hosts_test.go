package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHostForms checks each host's variable references against what its
// documentation says it expands; anything else reaches the server as written.
func TestHostForms(t *testing.T) {
	env := envOf(map[string]string{"TOKEN": "t0k", "EMPTY": "", "HOME": "/home/u"})
	tests := []struct {
		host     Host
		in, want string
		err      string
	}{
		{HostClaudeCode, "${TOKEN}", "t0k", ""},
		{HostClaudeCode, "${MISSING:-dflt}/${EMPTY:-e}", "dflt/e", ""},
		{HostClaudeCode, "${env:TOKEN} $TOKEN", "${env:TOKEN} $TOKEN", ""},
		{HostClaudeCode, "${MISSING}", "", "${MISSING} is not set"},
		{HostClaudeDesktop, "${TOKEN} ${env:TOKEN} $TOKEN", "${TOKEN} ${env:TOKEN} $TOKEN", ""},
		{HostCursor, "${env:TOKEN}|${userHome}|${workspaceFolder}|${workspaceFolderBasename}${/}x", "t0k|/home/u|/w/proj|proj/x", ""},
		{HostCursor, "${TOKEN} $TOKEN", "${TOKEN} $TOKEN", ""},
		{HostCursor, "${env:MISSING}", "", "${env:MISSING} is not set"},
		{HostVSCode, "${env:TOKEN}@${workspaceFolder}", "t0k@/w/proj", ""},
		{HostVSCode, "${input:key}", "", "${input:key} asks vscode to prompt for a value"},
		{HostVSCode, "${config:editor.fontSize}", "", "${config:editor.fontSize} is a vscode variable, which mcpsh does not expand"},
		{HostWindsurf, "${env:TOKEN}", "t0k", ""},
		{HostWindsurf, "${file:/etc/token}", "", "${file:/etc/token} is a windsurf variable"},
		{HostWindsurf, "${workspaceFolder} ${TOKEN}", "${workspaceFolder} ${TOKEN}", ""},
		{HostGemini, "$TOKEN and ${TOKEN}, $5 and $", "t0k and t0k, $5 and $", ""},
		{HostGemini, "$MISSING", "", "$MISSING is not set"},
		{HostGemini, "${TOKEN:-x}", "${TOKEN:-x}", ""},
		{HostCodex, "${TOKEN} $TOKEN", "${TOKEN} $TOKEN", ""},
	}
	for _, tt := range tests {
		hp := newHostParser(tt.host, ScopeProject, "f", "/w/proj", "/w/proj", "/home/u", env)
		got, err := hp.forms().expand(tt.in, env, nil)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s %q: error %v, want %q", tt.host, tt.in, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s %q = %q, %v; want %q", tt.host, tt.in, got, err, tt.want)
		}
	}
	// A user's file with no project knows no ${workspaceFolder}.
	hp := newHostParser(HostVSCode, ScopeUser, "f", "", "", "/home/u", env)
	if _, err := hp.forms().expand("${workspaceFolder}", env, nil); err == nil || !strings.Contains(err.Error(), "has no value here") {
		t.Errorf("${workspaceFolder} without a folder: %v", err)
	}
	// mcpsh's own file is as before.
	if _, err := expand("${workspaceFolder}", env); err == nil || !strings.Contains(err.Error(), "is a VS Code variable") {
		t.Errorf("own file: %v", err)
	}
}

func TestHostServerKeys(t *testing.T) {
	parse := func(h Host, src string) []*Server {
		t.Helper()
		hp := newHostParser(h, ScopeUser, "/f.json", "", "", "/home/u", envOf(nil))
		servers, _, err := hp.parseFile([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		return servers
	}
	// mcpsh's own keys are not read from another host's file: Gemini's
	// trust is a boolean and its timeout milliseconds, and a foreign file
	// must not set mcpsh's policy.
	s := parse(HostGemini, `{"mcpServers": {"a": {"command": "x", "trust": true, "timeout": 1500, "policy": {"allow": ["*"]}}}}`)[0]
	if s.Err != nil || s.Trust != "trusted" || len(s.Rules) != 0 || s.Timeout.Milliseconds() != 1500 {
		t.Errorf("gemini: %+v", s)
	}
	s = parse(HostCursor, `{"mcpServers": {"a": {"command": "x", "trust": "untrusted", "retries": "lots"}}}`)[0]
	if s.Err != nil || s.Trust != "trusted" {
		t.Errorf("cursor: %+v", s)
	}
	// One malformed entry is that server's problem; the file's others are read.
	servers := parse(HostCursor, `{"mcpServers": {"bad": {"command": 7}, "worse": {}, "good": {"command": "x"}}}`)
	if len(servers) != 3 || servers[2].Err != nil {
		t.Fatalf("%+v", servers)
	}
	if e := servers[0].Err; e == nil || e.Error() != "/f.json: mcpServers.bad.command: want a string, got a number" {
		t.Errorf("bad: %v", e)
	}
	if e := servers[1].Err; e == nil || !strings.Contains(e.Error(), `mcpServers.worse: has neither "command" nor "url"`) {
		t.Errorf("worse: %v", e)
	}
	// Windsurf's serverUrl is named as written in messages.
	s = parse(HostWindsurf, `{"mcpServers": {"a": {"serverUrl": "ftp://x"}}}`)[0]
	if s.Err == nil || !strings.Contains(s.Err.Error(), "mcpServers.a.serverUrl:") {
		t.Errorf("windsurf: %v", s.Err)
	}
	s = parse(HostCursor, `{"mcpServers": {"a": {"command": "x", "disabled": "yes"}}}`)[0]
	if s.Err == nil || !strings.Contains(s.Err.Error(), "mcpServers.a.disabled: want true or false") {
		t.Errorf("disabled: %v", s.Err)
	}
}

func TestCodexFile(t *testing.T) {
	hp := newHostParser(HostCodex, ScopeUser, "/c.toml", "", "", "/home/u", envOf(map[string]string{"T": "tok", "H": "hv"}))
	servers, err := hp.codexServers([]byte(`
[mcp_servers.a]
url = "https://example.com/mcp"
bearer_token_env_var = "T"
env_http_headers = { "X-H" = "H", "X-Unset" = "NOPE" }

[mcp_servers.b]
command = 7
`))
	if err != nil || len(servers) != 2 {
		t.Fatalf("%v %v", servers, err)
	}
	a := servers[0]
	if a.Headers["Authorization"] != "Bearer tok" || a.Headers["X-H"] != "hv" || len(a.Headers) != 2 || a.Err != nil {
		t.Errorf("a: %v %v", a.Headers, a.Err)
	}
	if e := servers[1].Err; e == nil || e.Error() != "/c.toml: mcp_servers.b.command: want a string, got a number" {
		t.Errorf("b: %v", e)
	}
	_, err = hp.codexServers([]byte("[mcp_servers.a]\ncommand = \"x\"\nargs = [\n"))
	if e, ok := err.(*Error); !ok || e.Line == 0 || e.File != "/c.toml" {
		t.Errorf("malformed TOML: %#v", err)
	}
}

func TestDotenv(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(path, []byte("\ufeff# c\nA=1\nexport B=\"two\\nlines\"\nC='lit $X'\nD=plain # note\nA=again\n\n"), 0o600)
	got, err := readDotenv(path)
	want := [][2]string{{"A", "again"}, {"B", "two\nlines"}, {"C", "lit $X"}, {"D", "plain"}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("%q %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %q, want %q", i, got[i], want[i])
		}
	}
	os.WriteFile(path, []byte("A=1\nnot a pair\n"), 0o600)
	if _, err := readDotenv(path); err == nil || !strings.Contains(err.Error(), ".env:2: want NAME=VALUE") {
		t.Errorf("bad line: %v", err)
	}
	if _, err := readDotenv(path + ".missing"); err == nil {
		t.Error("a missing envFile must be an error")
	}
}

func TestGeminiTrustedFolders(t *testing.T) {
	rules := map[string]string{"/w/a": "TRUST_FOLDER", "/w/b/x": "TRUST_PARENT", "/w/a/no": "DO_NOT_TRUST"}
	for folder, want := range map[string]bool{"/w/a": true, "/w/a/sub": true, "/w/b": true, "/w/b/y": true, "/w/a/no": false, "/w": false, "/w/ab": false} {
		if got := geminiTrusted(rules, folder); got != want {
			t.Errorf("%s: %v, want %v", folder, got, want)
		}
	}
}

// TestUserFilesTable keeps README's table of what is read from where in step
// with the code, for each platform.
func TestUserFilesTable(t *testing.T) {
	env := func(goos string) func(string) (string, bool) {
		if goos == "windows" {
			return envOf(map[string]string{"USERPROFILE": `C:\Users\u`, "APPDATA": `C:\Users\u\AppData\Roaming`})
		}
		return envOf(map[string]string{"HOME": "/home/u"})
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	i := strings.Index(section, "## Servers from other hosts")
	if i < 0 {
		t.Fatal(`README has no "## Servers from other hosts"`)
	}
	section = section[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	cols := map[string]int{"linux": 2, "darwin": 3, "windows": 4}
	for goos, col := range cols {
		p := placesFor(goos, env(goos))
		files := append([]userFile{{HostClaudeCode, p.claudeJSON()}}, p.userFiles()...)
		for _, uf := range files {
			rel := uf.path
			switch {
			case goos == "darwin" && strings.HasPrefix(rel, p.appData):
				rel = "~/Library/Application Support" + strings.TrimPrefix(rel, p.appData)
			case goos == "windows" && strings.HasPrefix(rel, p.appData):
				rel = `%APPDATA%` + strings.TrimPrefix(rel, p.appData)
			case goos == "windows":
				rel = `%USERPROFILE%` + strings.TrimPrefix(rel, p.home)
			default:
				rel = "~" + strings.TrimPrefix(rel, p.home)
			}
			if goos != "windows" {
				rel = filepath.ToSlash(rel)
			} else {
				rel = strings.ReplaceAll(rel, "/", `\`)
			}
			row := regexp.MustCompile(`(?m)^\| `+regexp.QuoteMeta(string(uf.host))+` \| user \|.*$`).FindAllString(section, -1)
			found := false
			for _, r := range row {
				cells := strings.Split(r, "|")
				if len(cells) > col+1 && strings.Contains(cells[col+1], "`"+rel+"`") {
					found = true
				}
			}
			if !found {
				t.Errorf("README's table has no %s user row with `%s` for %s", uf.host, rel, goos)
			}
		}
	}
	for _, pf := range projectFiles {
		if !strings.Contains(section, "| "+string(pf.host)+" | project | `"+filepath.ToSlash(pf.rel)+"`") {
			t.Errorf("README's table has no %s project row for `%s`", pf.host, filepath.ToSlash(pf.rel))
		}
	}
}

// FuzzSkipValue: on valid JSON, jsonSpan's skipValue ends where the value
// ends, whatever the strings and nesting hold.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"}\"]"}],"c":null}`, `"x\\"`, `[[],{}]`, `{"p":{"q":"\\\\\""}}`, `-1.5e3`, `true`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := strings.TrimSpace(s)
		if !json.Valid([]byte(v)) || v == "" {
			return
		}
		end, err := skipValue([]byte(v), 0)
		if err != nil || end != len(v) {
			t.Fatalf("skipValue(%q) = %d, %v; want %d", v, end, err, len(v))
		}
	})
}

func TestClaudeJSONMalformed(t *testing.T) {
	h := installHosts(t)
	for src, want := range map[string]string{
		"{\n  \"mcpServers\": {\"a\": {\"command\": \"x\"}},\n  \"projects\": {\"p\": [1, 2}\n}": ".claude.json:3:26: unbalanced '}'",
		`{"mcpServers": {}} trailing`:                                    ".claude.json:1:20: unexpected text after the top-level object",
		`{"mcpServers": {}, "mcpServers": {}}`:                           ".claude.json: mcpServers: duplicate key",
		`{"projects": {}, "projects": {}}`:                               ".claude.json: projects: duplicate key",
		`{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`: ".claude.json: mcpServers.a: duplicate key",
	} {
		os.WriteFile(filepath.Join(h.home, ".claude.json"), []byte(src), 0o644)
		c := h.discover(t, false)
		var got []string
		for _, w := range c.Warnings {
			got = append(got, w.Error())
		}
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("%s:\n%s\nwant %q", src, strings.Join(got, "\n"), want)
		}
	}
}
