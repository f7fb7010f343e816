package hostedit

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/config"
)

var update = flag.Bool("update", false, "rewrite the golden after-files in testdata")

// fixture is a file of config/testdata/hosts, every host's format after
// its documentation, with its placeholders filled in as a user's would be.
func fixture(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "config", "testdata", "hosts", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.NewReplacer("@REPO@", `"/w/repo"`, "@DEMO@", `"/usr/bin/demo-server"`, "@DEMOARGS@", `["--stdio"]`).Replace(string(data)))
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/hostedit -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n%s", name, Diff("want", "got", want, got))
	}
}

const mcpsh = "/usr/local/bin/mcpsh"

// wrapCase is one entry of the fixture, in every host's format.
type wrapCase struct {
	golden  string
	host    config.Host
	file    string
	path    []string
	tr      config.Transport
	project string // for a project's file
}

var wrapCases = []wrapCase{
	{"claude-desktop-filesystem.json", config.HostClaudeDesktop, "appdata/Claude/claude_desktop_config.json", []string{"mcpServers", "filesystem"}, config.Stdio, ""},
	{"claude-code-github.json", config.HostClaudeCode, "home/.claude.json", []string{"mcpServers", "github"}, config.Stdio, ""},
	{"claude-code-sentry.json", config.HostClaudeCode, "home/.claude.json", []string{"mcpServers", "sentry"}, config.HTTP, ""},
	{"claude-code-local-db.json", config.HostClaudeCode, "home/.claude.json", []string{"projects", "/w/repo", "mcpServers", "local-db"}, config.Stdio, ""},
	{"cursor-github.json", config.HostCursor, "home/.cursor/mcp.json", []string{"mcpServers", "github"}, config.HTTP, ""},
	{"cursor-notion.json", config.HostCursor, "home/.cursor/mcp.json", []string{"mcpServers", "notion"}, config.Stdio, ""},
	{"cursor-project-docs.json", config.HostCursor, "repo/.cursor/mcp.json", []string{"mcpServers", "docs"}, config.Stdio, "/w/repo"},
	{"vscode-memory.jsonc", config.HostVSCode, "appdata/Code/User/mcp.json", []string{"servers", "memory"}, config.Stdio, ""},
	{"vscode-perplexity.jsonc", config.HostVSCode, "appdata/Code/User/mcp.json", []string{"servers", "perplexity"}, config.Stdio, ""},
	{"vscode-fetch.jsonc", config.HostVSCode, "repo/.vscode/mcp.json", []string{"servers", "fetch"}, config.HTTP, "/w/repo"},
	{"windsurf-figma.json", config.HostWindsurf, "home/.codeium/windsurf/mcp_config.json", []string{"mcpServers", "figma"}, config.HTTP, ""},
	{"codex-context7.toml", config.HostCodex, "home/.codex/config.toml", []string{"mcp_servers", "context7"}, config.Stdio, ""},
	{"codex-figma.toml", config.HostCodex, "home/.codex/config.toml", []string{"mcp_servers", "figma"}, config.HTTP, ""},
	{"codex-retired.toml", config.HostCodex, "home/.codex/config.toml", []string{"mcp_servers", "retired"}, config.Stdio, ""},
	{"gemini-pythonTools.json", config.HostGemini, "repo/.gemini/settings.json", []string{"mcpServers", "pythonTools"}, config.Stdio, "/w/repo"},
	{"gemini-httpServer.json", config.HostGemini, "repo/.gemini/settings.json", []string{"mcpServers", "httpServer"}, config.HTTP, "/w/repo"},
	{"gemini-sseServer.json", config.HostGemini, "repo/.gemini/settings.json", []string{"mcpServers", "sseServer"}, config.SSE, "/w/repo"},
}

func (c wrapCase) hostFile() config.HostFile {
	f := config.HostFile{Host: c.host, Scope: config.ScopeUser, Path: c.file, Home: "/home/u"}
	if c.project != "" {
		f.Scope, f.Project = config.ScopeProject, c.project
	}
	return f
}

func (c wrapCase) wrap(t *testing.T) *Plan {
	t.Helper()
	data := fixture(t, c.file)
	p, err := Wrap(c.host, c.file, data, c.path, Options{Command: mcpsh, As: string(c.host) + ":" + c.path[len(c.path)-1], Transport: c.tr})
	if err != nil {
		t.Fatalf("%s: %v", c.golden, err)
	}
	return p
}

// Every host's format: the file after the edit is its golden, changed in
// the entry only; read by the host's parser it holds the same servers, the
// entry running mcpsh proxy for the server it was; and undone, it is the
// file before, byte for byte.
func TestWrapEveryHost(t *testing.T) {
	for _, c := range wrapCases {
		t.Run(c.golden, func(t *testing.T) {
			p := c.wrap(t)
			golden(t, c.golden, p.New)
			if !bytes.Equal(p.New[:p.Start], p.Old[:p.Start]) || !bytes.Equal(p.New[p.Start+len(p.Written):], p.Old[p.Start+len(p.Original):]) {
				t.Error("bytes outside the entry changed")
			}
			if err := Check(c.hostFile(), p, Wrapped(nil)); err != nil {
				t.Fatal(err)
			}
			r := recordOf(p, c.hostFile())
			u, err := Undo(r, p.New, false)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(u.New, p.Old) {
				t.Errorf("undo is not the file before:\n%s", Diff("before", "undone", p.Old, u.New))
			}
			if err := Check(c.hostFile(), u, Unwrapped(false, false)); err != nil {
				t.Error(err)
			}
		})
	}
}

// recordOf is the record Save would keep of p.
func recordOf(p *Plan, f config.HostFile) *Record {
	return &Record{Version: 1, Host: p.Host, Name: p.Name(), File: p.File, Scope: f.Scope, Project: f.Project, KeyPath: p.Path, Key: p.Key(),
		Original: string(p.Original), Written: string(p.Written), Prefix: string(p.Prefix), Suffix: string(p.Suffix),
		Backup: "/state/backup", path: "/state/record.json"}
}

// Undo refuses an entry that changed since mcpsh wrote it, naming the
// record and the backup, and puts the original back only when forced.
func TestUndoRefusesAChangedEntry(t *testing.T) {
	for _, c := range []wrapCase{wrapCases[4], wrapCases[7], wrapCases[12]} {
		t.Run(c.golden, func(t *testing.T) {
			p := c.wrap(t)
			r := recordOf(p, c.hostFile())
			// Someone edits the entry: the path of mcpsh it runs.
			edited := bytes.Replace(p.New, []byte(mcpsh), []byte("/opt/mcpsh/mcpsh"), 1)
			_, err := Undo(r, edited, false)
			var ce *ChangedError
			if !errors.As(err, &ce) || ce.Gone || !strings.Contains(err.Error(), "changed since mcpsh wrote it; nothing written") ||
				!strings.Contains(err.Error(), "/state/record.json") || !strings.Contains(err.Error(), "/state/backup") {
				t.Fatalf("%v", err)
			}
			u, err := Undo(r, edited, true)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(u.New, p.Old) {
				t.Errorf("forced undo:\n%s", Diff("before", "undone", p.Old, u.New))
			}
			if err := Check(c.hostFile(), u, Unwrapped(false, true)); err != nil {
				t.Error(err)
			}
			// The entry is gone: nothing to put back in place of.
			gone := bytes.Replace(p.New, []byte(`"`+p.Name()+`"`), []byte(`"renamed"`), 1)
			if c.host == config.HostCodex {
				gone = bytes.Replace(p.New, []byte("mcp_servers."+p.Name()), []byte("mcp_servers.renamed"), -1)
			}
			if _, err := Undo(r, gone, false); !errors.As(err, &ce) || !ce.Gone || !strings.Contains(err.Error(), "is gone since mcpsh wrote it") {
				t.Errorf("gone: %v", err)
			}
		})
	}
}

// Claude Code's project server gets a local entry in ~/.claude.json:
// beside the project's local servers, in a new project, or in an empty
// object; undone, the file is as it was.
func TestOverrideClaudeProject(t *testing.T) {
	claude := fixture(t, "home/.claude.json")
	mcp := fixture(t, "repo/.mcp.json")
	emptyServers := bytes.Replace(claude, []byte(`"hasTrustDialogAccepted": true,`), []byte(`"hasTrustDialogAccepted": true,
      "mcpServers": {},
      "x": 1,`), 1)
	emptyServers = bytes.Replace(emptyServers, []byte("\"mcpServers\": {\n        \"local-db\""), []byte("\"other\": {\n        \"local-db\""), 1)
	f := config.HostFile{Host: config.HostClaudeCode, Scope: config.ScopeUser, Path: ".claude.json", Home: "/home/u"}
	servers, err := config.ReadHostFile(config.HostFile{Host: config.HostClaudeCode, Scope: config.ScopeProject, Path: ".mcp.json", Project: "/w/repo"}, mcp, CheckEnv)
	if err != nil {
		t.Fatal(err)
	}
	var api *config.Server
	for _, s := range servers {
		if s.Name == "api" {
			api = s
		}
	}
	for _, tt := range []struct {
		golden, dir string
		file        []byte
	}{
		{"claude-code-override.json", "/w/repo", claude},
		{"claude-code-override-new-project.json", "/new/project", claude},
		{"claude-code-override-empty.json", "/w/repo", emptyServers},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			p, err := Override(".claude.json", tt.file, tt.dir, "api", ".mcp.json", mcp, Options{Command: mcpsh, As: "claude-code:api", Transport: config.Stdio})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, p.New)
			if err := Check(f, p, Wrapped(api)); err != nil {
				t.Fatal(err)
			}
			if len(p.Original) != 0 || len(p.Prefix) == 0 || !bytes.Equal(p.New[p.Start:p.Start+len(p.Written)], p.Written) {
				t.Errorf("plan: %+v", p)
			}
			u, err := Undo(recordOf(p, f), p.New, false)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(u.New, tt.file) {
				t.Errorf("undo:\n%s", Diff("before", "undone", tt.file, u.New))
			}
			if err := Check(f, u, Unwrapped(true, false)); err != nil {
				t.Error(err)
			}
		})
	}
	// Claude Code wrote the file again in its own layout: the entry alone comes out.
	p, err := Override(".claude.json", claude, "/new/project", "api", ".mcp.json", mcp, Options{Command: mcpsh, As: "claude-code:api", Transport: config.Stdio})
	if err != nil {
		t.Fatal(err)
	}
	relaid := bytes.Replace(p.New, []byte("\"/new/project\": {\n"), []byte("\"/new/project\": {\n      \"allowedTools\": [],\n"), 1)
	u, err := Undo(recordOf(p, f), relaid, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(f, u, Unwrapped(true, false)); err != nil || bytes.Contains(u.New, []byte(`"api":`)) {
		t.Errorf("%v\n%s", err, u.New)
	}
	// A local server of that name is there already.
	if _, err := Override(".claude.json", p.New, "/new/project", "api", ".mcp.json", mcp, Options{Command: mcpsh, As: "claude-code:api", Transport: config.Stdio}); err == nil ||
		err.Error() != ".claude.json: projects[/new/project].mcpServers.api: already holds a local server of that name" {
		t.Errorf("%v", err)
	}
}

// A check that finds the edit changed something else refuses it.
func TestCheckRefusesAnEditOfAnotherServer(t *testing.T) {
	c := wrapCases[4] // cursor github
	p := c.wrap(t)
	p.New = bytes.Replace(p.New, []byte(`"-y", "@notionhq/notion-mcp-server"`), []byte(`"-y", "@notionhq/other"`), 1)
	if err := Check(c.hostFile(), p, Wrapped(nil)); err == nil || !strings.Contains(err.Error(), "would change more than mcpServers.github (mcpServers.notion reads differently); nothing written") {
		t.Errorf("%v", err)
	}
	p = c.wrap(t)
	p.New = bytes.Replace(p.New, []byte("cursor-github/mcp"), []byte("elsewhere/mcp"), 1)
	if err := Check(c.hostFile(), p, Wrapped(nil)); err == nil || !strings.Contains(err.Error(), "would leave mcpServers.github wrong (it does not reach the same server)") {
		t.Errorf("%v", err)
	}
	p = c.wrap(t)
	p.New = append(p.New[:len(p.New)-3:len(p.New)-3], '\n')
	if err := Check(c.hostFile(), p, Wrapped(nil)); err == nil || !strings.Contains(err.Error(), "would break it") {
		t.Errorf("%v", err)
	}
}

// Bad input names the file and the key; nothing comes back to write.
func TestWrapBadInput(t *testing.T) {
	o := Options{Command: mcpsh, As: "x:a", Transport: config.Stdio}
	for _, tt := range []struct {
		host config.Host
		src  string
		path []string
		tr   config.Transport
		want string
	}{
		{config.HostMcpsh, `{}`, []string{"mcpServers", "a"}, config.Stdio, "f: mcpsh does not edit mcpsh's files"},
		{config.HostCursor, `{"mcpServers": {"b": {"command": "x"}}}`, []string{"mcpServers", "a"}, config.Stdio, "f: mcpServers.a: not in the file"},
		{config.HostCursor, "{\n  \"mcpServers\": {\"a\": {\"command\": \"x\"}\n", []string{"mcpServers", "a"}, config.Stdio, "f:3:1: unexpected end of JSON input"},
		{config.HostVSCode, "{\n  \"servers\": { /* open", []string{"servers", "a"}, config.Stdio, "f:2:16: unterminated /* comment"},
		{config.HostCursor, `{"mcpServers": {"a": "npx server"}}`, []string{"mcpServers", "a"}, config.Stdio, "f: mcpServers.a: want an object, got a string"},
		{config.HostCursor, `{"mcpServers": []}`, []string{"mcpServers", "a"}, config.Stdio, "f: mcpServers: want an object, got an array"},
		{config.HostCursor, `{"mcpServers": {"a": {"command": ["x"]}}}`, []string{"mcpServers", "a"}, config.Stdio, "f: mcpServers.a.command: want a string, got an array"},
		{config.HostCursor, `{"mcpServers": {"a": {"command": "x", "args": "-y"}}}`, []string{"mcpServers", "a"}, config.Stdio, "f: mcpServers.a.args: want an array of strings, got a string"},
		{config.HostCursor, `{"mcpServers": {"a": {"command": "x", "args": ["-y", 1]}}}`, []string{"mcpServers", "a"}, config.Stdio, "f: mcpServers.a.args[1]: want a string, got a number"},
		{config.HostCursor, `{"mcpServers": {"a": {"url": "https://h", "headers": {"A": 1}}}}`, []string{"mcpServers", "a"}, config.HTTP, "f: mcpServers.a.headers.A: want a string, got a number"},
		{config.HostCursor, `{"mcpServers": {"a": {"env": {}}}}`, []string{"mcpServers", "a"}, config.Stdio, `f: mcpServers.a: has no "command"`},
		{config.HostCodex, "[mcp_servers.a]\ncommand = \"x\"\nargs = [\n", []string{"mcp_servers", "a"}, config.Stdio, "f:3:9: array is incomplete"},
		{config.HostCodex, "[mcp_servers.b]\ncommand = \"x\"\n", []string{"mcp_servers", "a"}, config.Stdio, "f: mcp_servers.a: not in the file"},
		{config.HostCodex, "[mcp_servers.a]\ncommand = 7\n", []string{"mcp_servers", "a"}, config.Stdio, "f: mcp_servers.a.command: want a string, got a number"},
		{config.HostCodex, "[mcp_servers.a]\ncommand = \"x\"\nargs = [1]\n", []string{"mcp_servers", "a"}, config.Stdio, "f: mcp_servers.a.args: want an array of strings, got an array"},
		{config.HostCodex, "mcp_servers.a.command = \"x\"\n", []string{"mcp_servers", "a"}, config.Stdio, "f:1:1: mcp_servers.a is written with dotted keys"},
		{config.HostCodex, "[mcp_servers.a]\ncommand = \"x\"\n[mcp_servers.b]\ncommand = \"y\"\n[mcp_servers.a.env]\nA = \"1\"\n", []string{"mcp_servers", "a"}, config.Stdio, "f:5:1: mcp_servers.a is written in more than one place"},
		{config.HostCodex, "[[mcp_servers.a]]\ncommand = \"x\"\n", []string{"mcp_servers", "a"}, config.Stdio, "f:1:1: mcp_servers.a: want a table, got an array of tables"},
		{config.HostCodex, "[mcp_servers.a]\nurl = \"https://h\"\nenv_vars = [ # passed on\n  \"A\" ]\nbearer_token_env_var = \"T\"\n", []string{"mcp_servers", "a"}, config.HTTP, "f: mcp_servers.a.env_vars: has comments inside"},
	} {
		o.Transport = tt.tr
		p, err := Wrap(tt.host, "f", []byte(tt.src), tt.path, o)
		if p != nil || err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s %q:\n got %v\nwant %s", tt.host, tt.src, err, tt.want)
		}
		var ce *config.Error
		if err != nil && !errors.As(err, &ce) {
			t.Errorf("%q: %T is no *config.Error", tt.src, err)
		}
	}
}

// An edit whose entry would not be found again where it was written (so
// --undo could not find it) is refused.
func TestRelocateRefusesAnEntryOutOfPlace(t *testing.T) {
	for _, c := range []wrapCase{wrapCases[4], wrapCases[12]} {
		p := c.wrap(t)
		p.Written = p.Written[:len(p.Written)-1]
		if err := p.relocate(); err == nil || !strings.Contains(err.Error(), "would not leave "+p.Key()+" where it wrote it; nothing written") {
			t.Errorf("%s: %v", c.golden, err)
		}
	}
}
