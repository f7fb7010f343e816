package cli

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/testing/testenv"
)

// proxyMcpsh is the mcpsh the written entries run: not this test binary,
// and nowhere, so a test passes only if nothing starts it.
const proxyMcpsh = "/opt/mcpsh/bin/mcpsh"

// fileState is every file of the hosts' tree with its bytes and time.
type fileState map[string]string

func snapshotFiles(t *testing.T, root string) fileState {
	t.Helper()
	out := fileState{}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, _ := d.Info()
		data, _ := os.ReadFile(path)
		out[path] = fi.ModTime().Format(time.RFC3339Nano) + "\x00" + string(data)
		return nil
	})
	return out
}

// unchanged fails the test if a file of the tree was written, made or
// removed since before.
func (before fileState) unchanged(t *testing.T, root, what string) {
	t.Helper()
	after := snapshotFiles(t, root)
	for path, s := range before {
		if after[path] != s {
			t.Errorf("%s: %s changed", what, path)
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok {
			t.Errorf("%s: %s appeared", what, path)
		}
	}
}

func proxyEnv(h *testenv.Hosts) map[string]string {
	e := h.Env()
	e["XDG_STATE_HOME"] = filepath.Join(h.Root, "state")
	return e
}

func TestProxyConfigPrints(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	before := snapshotFiles(t, h.Root)
	r, _ := run(t, env{vars: proxyEnv(h)}, "proxy", "config", "cursor:github", "--command", proxyMcpsh)
	wantCode(t, r, ExitOK)
	if r.out != `{
  "mcpServers": {
    "github": {
      "command": "/opt/mcpsh/bin/mcpsh",
      "args": ["proxy", "--as", "cursor:github", "--url", "http://127.0.0.1:9/cursor-github/mcp", "--header-env", "Authorization=MCPSH_HEADER_1"],
      "env": { "MCPSH_HEADER_1": "Bearer ${env:GITHUB_TOKEN}" }
    }
  }
}
` {
		t.Errorf("stdout:\n%s", r.out)
	}
	contains(t, "stderr", r.errOut, "mcpsh: cursor:github is mcpServers.github in ~/.cursor/mcp.json; this entry in its place routes it through mcpsh:",
		"mcpsh proxy config cursor:github --write puts it there")

	// VS Code's key for servers; Codex's TOML.
	r, _ = run(t, env{vars: proxyEnv(h)}, "proxy", "config", "vscode:memory", "--command", proxyMcpsh)
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "{\n  \"servers\": {\n    \"memory\": {\n", `"args": ["proxy", "--as", "vscode:memory", "--", "npx", "-y", "@modelcontextprotocol/server-memory"],`)
	r, _ = run(t, env{vars: proxyEnv(h)}, "-s", "codex:context7", "proxy", "config", "--command", proxyMcpsh)
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "[mcp_servers.context7]\ncommand = \"/opt/mcpsh/bin/mcpsh\"\nargs = [\"proxy\", \"--as\", \"codex:context7\", \"--\", \"npx\", \"-y\", \"@upstash/context7-mcp\"]\n\n[mcp_servers.context7.env]\nLOG_LEVEL = \"info\"\n")

	// --json: host, file, key, the entry before and after.
	r, _ = run(t, env{vars: proxyEnv(h)}, "proxy", "config", "windsurf:figma", "--command", proxyMcpsh, "--json")
	wantCode(t, r, ExitOK)
	var j struct {
		Host, Ref, File, Key string
		Before, After        *string
		Written              bool
	}
	if err := json.Unmarshal([]byte(r.out), &j); err != nil {
		t.Fatal(err, r.out)
	}
	if j.Host != "windsurf" || j.Ref != "windsurf:figma" || j.File != filepath.Join(h.Home, ".codeium", "windsurf", "mcp_config.json") || j.Key != "mcpServers.figma" ||
		j.Before == nil || !strings.Contains(*j.Before, `"serverUrl": "http://127.0.0.1:9/windsurf-figma/mcp"`) ||
		j.After == nil || !strings.Contains(*j.After, `"--header-env", "Authorization=MCPSH_HEADER_1"`) || j.Written {
		t.Errorf("%+v", j)
	}
	before.unchanged(t, h.Root, "printing")
}

// --write without a terminal needs --yes; with it the entry is rewritten,
// discovery reads it as the server it proxies (mcpsh tools talks to the
// server itself, never to the proxy), and --undo puts back the file byte
// for byte.
func TestProxyConfigWriteAndUndo(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	vars := proxyEnv(h)
	claudeJSON := filepath.Join(h.Home, ".claude.json")
	original, _ := os.ReadFile(claudeJSON)
	before := snapshotFiles(t, h.Root)
	args := []string{"proxy", "config", "claude-code:github", "--command", proxyMcpsh}

	r, _ := run(t, env{vars: vars}, append(args, "--write")...)
	wantCode(t, r, ExitRefused)
	contains(t, "stdout", r.out, "--- ~/.claude.json\n+++ ~/.claude.json\n", `-      "args": [],`,
		`+      "args": ["proxy", "--as", "claude-code:github", "--", `)
	contains(t, "stderr", r.errOut, "mcpsh: nothing written: there is no terminal to ask on; pass --yes to write it")
	before.unchanged(t, h.Root, "--write without --yes")

	r, _ = run(t, env{vars: vars}, append(args, "--write", "--yes")...)
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "mcpsh: wrote ~/.claude.json: claude-code runs github through mcpsh now",
		"mcpsh proxy config claude-code:github --undo puts the entry back", "claude mcp add-json github '{\"type\":\"stdio\"")
	written, _ := os.ReadFile(claudeJSON)
	if !strings.Contains(string(written), `"command": "/opt/mcpsh/bin/mcpsh",`) {
		t.Fatalf("not written:\n%s", written)
	}
	backups, _ := filepath.Glob(filepath.Join(h.Root, "state", "mcpsh", "proxy-config", "backups", "claude-code-github-*.json"))
	if len(backups) != 1 {
		t.Fatalf("backups: %v", backups)
	}
	if b, _ := os.ReadFile(backups[0]); string(b) != string(original) {
		t.Error("the backup is not the file as it was")
	}

	// Discovery reads the entry as the demo it proxies.
	r, _ = run(t, env{vars: vars}, "servers", "--json")
	var list []struct {
		Ref, Command string
		Proxied      bool
		Origin       struct{ Scope string }
	}
	json.Unmarshal([]byte(r.out), &list)
	found := false
	for _, s := range list {
		if s.Ref == "claude-code:github" && s.Origin.Scope == "user" {
			found = s.Proxied && s.Command == os.Args[0]
		}
	}
	if !found {
		t.Errorf("servers --json:\n%s", r.out)
	}
	r, _ = run(t, env{vars: vars}, "servers")
	contains(t, "servers", r.out, "github\tstdio\t"+os.Args[0]+"\tfrom claude-code (~/.claude.json); through mcpsh proxy;")
	r, _ = run(t, env{vars: vars}, "tools", "-s", "claude-code:github", "--no-log")
	wantCode(t, r, ExitOK)
	contains(t, "tools", r.out, "list_notes")

	// Written already: nothing to do.
	r, _ = run(t, env{vars: vars}, append(args, "--write", "--yes")...)
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "claude-code:github runs through mcpsh proxy already (mcpServers.github in ~/.claude.json)")

	// --undo asks too, and puts the file back.
	mid := snapshotFiles(t, h.Root)
	r, _ = run(t, env{vars: vars}, "proxy", "config", "claude-code:github", "--undo")
	wantCode(t, r, ExitRefused)
	mid.unchanged(t, h.Root, "--undo without --yes")
	r, _ = run(t, env{vars: vars}, "proxy", "config", "claude-code:github", "--undo", "--yes")
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "mcpsh: ~/.claude.json: mcpServers.github put back as it was")
	if now, _ := os.ReadFile(claudeJSON); string(now) != string(original) {
		t.Errorf("undo is not the file before:\n%s", now)
	}
	records, _ := filepath.Glob(filepath.Join(h.Root, "state", "mcpsh", "proxy-config", "records", "*"))
	if len(records) != 0 {
		t.Errorf("records left: %v", records)
	}
	if _, err := os.Stat(backups[0]); err != nil {
		t.Errorf("the backup went: %v", err)
	}
	r, _ = run(t, env{vars: vars}, "proxy", "config", "claude-code:github", "--undo", "--yes")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, "mcpsh has no record of writing claude-code:github's entry")
}

// On a terminal mcpsh asks; anything but yes writes nothing.
func TestProxyConfigAsksOnATerminal(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	vars := proxyEnv(h)
	path := filepath.Join(h.Home, ".cursor", "mcp.json")
	original, _ := os.ReadFile(path)
	before := snapshotFiles(t, h.Root)
	args := []string{"proxy", "config", "cursor:notion", "--command", proxyMcpsh, "--write"}
	for _, answer := range []string{"n\n", "\n", ""} {
		r, _ := run(t, env{tty: true, width: 100, stdin: answer, vars: vars}, args...)
		wantCode(t, r, ExitRefused)
		contains(t, "stderr", r.errOut, "Write it? [y/N] ", "mcpsh: nothing written")
		contains(t, "stdout", r.out, `+      "args": ["proxy", "--as", "cursor:notion", "--", "npx", "-y", "@notionhq/notion-mcp-server"],`)
	}
	before.unchanged(t, h.Root, "answered no")
	r, _ := run(t, env{tty: true, width: 100, stdin: "yes\n", vars: vars}, args...)
	wantCode(t, r, ExitOK)
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"args": ["proxy", "--as", "cursor:notion", "--", "npx",`) || !strings.Contains(string(data), `"disabled": true`) {
		t.Errorf("written:\n%s", data)
	}
	// The answer counts for --undo too.
	r, _ = run(t, env{tty: true, width: 100, stdin: "y\n", vars: vars}, "proxy", "config", "cursor:notion", "--undo")
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "Write it? [y/N] ", "mcpServers.notion put back as it was")
	if now, _ := os.ReadFile(path); string(now) != string(original) {
		t.Errorf("undo:\n%s", now)
	}
}

// --undo refuses an entry someone changed since, naming the record and the
// backup; --force puts the original back.
func TestProxyConfigUndoRefusesAChangedEntry(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	vars := proxyEnv(h)
	path := filepath.Join(h.Home, ".codex", "config.toml")
	original, _ := os.ReadFile(path)
	r, _ := run(t, env{vars: vars}, "proxy", "config", "codex:figma", "--command", proxyMcpsh, "--write", "--yes", "--json")
	wantCode(t, r, ExitOK)
	var j struct {
		Diff, Backup, Record string
		Written              bool
	}
	if err := json.Unmarshal([]byte(r.out), &j); err != nil || !j.Written || j.Backup == "" || j.Record == "" || !strings.Contains(j.Diff, "+env_vars = [\"FIGMA_OAUTH_TOKEN\"]") {
		t.Fatalf("%+v %v\n%s", j, err, r.out)
	}
	contains(t, "stderr", r.errOut, "mcpsh keeps its own login: if codex:figma asks you to log in, run mcpsh login -s codex:figma once")
	written, _ := os.ReadFile(path)
	edited := strings.Replace(string(written), proxyMcpsh, "/usr/bin/mcpsh", 1)
	os.WriteFile(path, []byte(edited), 0o644)
	before := snapshotFiles(t, h.Root)
	r, _ = run(t, env{vars: vars}, "proxy", "config", "codex:figma", "--undo", "--yes")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, path+": mcp_servers.figma changed since mcpsh wrote it; nothing written. The original entry is in "+j.Record+", the whole file before the edit in "+j.Backup)
	before.unchanged(t, h.Root, "refused undo")
	r, _ = run(t, env{vars: vars}, "proxy", "config", "codex:figma", "--undo", "--yes", "--force")
	wantCode(t, r, ExitOK)
	if now, _ := os.ReadFile(path); string(now) != string(original) {
		t.Errorf("forced undo:\n%s", now)
	}
}

// Claude Code's project file is the repository's: the route is a local
// entry in ~/.claude.json, which --undo takes out again.
func TestProxyConfigClaudeProjectServer(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	vars := proxyEnv(h)
	claudeJSON := filepath.Join(h.Home, ".claude.json")
	original, _ := os.ReadFile(claudeJSON)
	repo := snapshotFiles(t, h.Repo)
	r, _ := run(t, env{vars: vars}, "proxy", "config", "claude-code:api", "--command", proxyMcpsh)
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "claude-code:api is mcpServers.api in "+filepath.Join(h.Repo, ".mcp.json")+", which the repository shares",
		"projects["+h.Repo+"].mcpServers.api in ~/.claude.json")
	r, _ = run(t, env{vars: vars}, "proxy", "config", "claude-code:api", "--command", proxyMcpsh, "--write", "--yes")
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, `+        "api": {`)
	contains(t, "stderr", r.errOut, "' -s local")
	repo.unchanged(t, h.Repo, "the project's files")
	// The local entry wins in mcpsh too, and is read as the demo.
	r, _ = run(t, env{vars: vars}, "call", "-s", "claude-code:api", "get_note", "id=1", "--no-log")
	wantCode(t, r, ExitOK)
	r, _ = run(t, env{vars: vars}, "proxy", "config", "claude-code:api", "--undo", "--yes")
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "mcpServers.api taken out")
	if now, _ := os.ReadFile(claudeJSON); string(now) != string(original) {
		t.Errorf("undo:\n%s", now)
	}
}

// Bad input is a clear error naming what and where, and nothing is written.
func TestProxyConfigBadInput(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	vars := proxyEnv(h)
	os.WriteFile(filepath.Join(h.Repo, ".cursor", "mcp.json"), []byte(`{"mcpServers": {"docs": "npx docs-server"}}`), 0o644)
	os.WriteFile(filepath.Join(h.Home, ".codex", "config.toml"), []byte("[mcp_servers.a]\ncommand = \"x\"\nargs = [\"y\"\n"), 0o644)
	before := snapshotFiles(t, h.Root)
	for _, tt := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"nope:github"}, ExitUsage, []string{`unknown host "nope" in nope:github (want one of claude-code, claude-desktop, cursor, vscode, windsurf, codex, gemini)`}},
		{[]string{"cursor:nope"}, ExitUsage, []string{"unknown server cursor:nope (cursor has: docs, github, notion)"}},
		{[]string{"gemini:broken"}, ExitUsage, []string{
			"mcpsh: warning: " + filepath.Join(h.Home, ".gemini", "settings.json") + ":5:5: invalid character",
			"unknown server gemini:broken (gemini has: httpServer, pythonTools, sseServer); mcpsh could not read ~/.codex/config.toml, ~/.gemini/settings.json (see above)"}},
		{[]string{"codex:a"}, ExitUsage, []string{"mcpsh: warning: " + filepath.Join(h.Home, ".codex", "config.toml") + ":3:12: toml: array is incomplete", "unknown server codex:a"}},
		{[]string{"cursor:docs", "--write", "--yes"}, ExitUsage, []string{filepath.Join(h.Repo, ".cursor", "mcp.json") + ": mcpServers.docs: want an object, got a string"}},
		{[]string{"mcpsh:docs"}, ExitUsage, []string{"mcpsh:docs is in mcpsh's own config, in no host's file"}},
		{[]string{"cursor:github", "--write", "--undo"}, ExitUsage, []string{"--write and --undo: choose one"}},
		{[]string{"cursor:github", "--force"}, ExitUsage, []string{"--force goes with --undo"}},
		{[]string{"cursor:github", "--yes"}, ExitUsage, []string{"--yes goes with --write or --undo"}},
		{[]string{"cursor:github", "--url", "http://127.0.0.1:9/x"}, ExitUsage, []string{"takes a configured server, HOST:NAME, not a target flag"}},
		{[]string{}, ExitUsage, []string{"name the server to route through mcpsh"}},
		{[]string{"cursor:github", "--command", "/opt/x/mcpsh-dev"}, ExitUsage, []string{`--command "/opt/x/mcpsh-dev": the entry must run a program called mcpsh`}},
		{[]string{"cursor:github", "--undo"}, ExitUsage, []string{"mcpsh has no record of writing cursor:github's entry"}},
	} {
		args := append([]string{"proxy", "config"}, tt.args...)
		if !strings.Contains(strings.Join(tt.args, " "), "--command") {
			args = append(args, "--command", proxyMcpsh)
		}
		r, _ := run(t, env{vars: vars}, args...)
		if r.code != tt.code {
			t.Errorf("%q: exit %d, want %d\n%s", tt.args, r.code, tt.code, r.errOut)
		}
		contains(t, strings.Join(tt.args, " "), r.errOut, tt.want...)
	}
	before.unchanged(t, h.Root, "bad input")
}

// The entry runs this mcpsh: by its $PATH name when that is this binary (a
// path an upgrade keeps), else where it is; a binary not called mcpsh
// could not be recognised in the entry, so it needs --command.
func TestProxyConfigCommand(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "cellar", "mcpsh")
	os.MkdirAll(filepath.Dir(exe), 0o755)
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	onPath := filepath.Join(dir, "bin", "mcpsh")
	os.MkdirAll(filepath.Dir(onPath), 0o755)
	if err := os.Symlink(exe, onPath); err != nil {
		t.Skip("no symlinks here:", err)
	}
	other := filepath.Join(dir, "other", "mcpsh")
	os.MkdirAll(filepath.Dir(other), 0o755)
	os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755)
	oldExe, oldLook := executable, lookPath
	t.Cleanup(func() { executable, lookPath = oldExe, oldLook })
	for _, tt := range []struct {
		exe, path, want, err string
	}{
		{exe, onPath, onPath, ""},
		{exe, other, exe, ""}, // $PATH's mcpsh is another one
		{exe, "", exe, ""},
		{filepath.Join(dir, "cli.test"), "", "", "is " + filepath.Join(dir, "cli.test") + ", not mcpsh: pass --command PATH"},
	} {
		executable = func() (string, error) { return tt.exe, nil }
		lookPath = func(string) (string, error) {
			if tt.path == "" {
				return "", os.ErrNotExist
			}
			return tt.path, nil
		}
		a := &proxyConfigOptions{}
		got, err := a.mcpshCommand("")
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s with %q on $PATH: %q %v", tt.exe, tt.path, got, err)
		}
	}
}

// A project's file is a cloned repository's: its comments and names reach
// the terminal only made safe, in the entry, the diff and every message.
func TestProxyConfigHostileProjectFile(t *testing.T) {
	t.Parallel()
	h := installHosts(t)
	vars := proxyEnv(h)
	path := filepath.Join(h.Repo, ".vscode", "mcp.json")
	os.WriteFile(path, []byte("{\n  \"servers\": {\n    \"evil\\u202e\": {\n      // \x1b]0;pwned\x07 \x1b[2J cleared\n      \"command\": \"npx\", \"args\": [\"srv\u202e\"]\n    }\n  }\n}\n"), 0o644)
	ref := "vscode:evil\u202e"
	for _, args := range [][]string{
		{"proxy", "config", ref, "--command", proxyMcpsh},
		{"proxy", "config", ref, "--command", proxyMcpsh, "--json"},
		{"proxy", "config", ref, "--command", proxyMcpsh, "--write"},
		{"proxy", "config", ref, "--command", proxyMcpsh, "--write", "--yes"},
		{"proxy", "config", ref, "--undo", "--yes"},
	} {
		r, _ := run(t, env{tty: true, width: 100, stdin: "n\n", vars: vars}, args...)
		if r.code != ExitOK && r.code != ExitRefused {
			t.Fatalf("%q: exit %d\n%s", args, r.code, r.errOut)
		}
		if bad := terminalControl(r.out + r.errOut); bad != "" {
			t.Errorf("%q: a control near %q", args, bad)
		}
	}
	r, _ := run(t, env{vars: vars}, "proxy", "config", ref, "--command", proxyMcpsh, "--write", "--yes")
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "mcpsh: warning: "+filepath.Join(h.Repo, ".vscode", "mcp.json")+" is the project's, shared with whoever uses the repository")
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "// \x1b]0;pwned\x07 \x1b[2J cleared\n") {
		t.Errorf("the file's own bytes are kept as they are:\n%q", data)
	}
}

// --undo restores an entry of a file this folder's host reads, never the
// newest record of the server's name wherever it was written: run in
// another project, where the entry does not resolve, it names the folder
// the record is for and writes nothing.
func TestProxyConfigUndoIsForThisFoldersEntry(t *testing.T) {
	h := installHosts(t)
	vars := proxyEnv(h)
	// cursor:notion is another project's only: the user's file has none.
	user := filepath.Join(h.Home, ".cursor", "mcp.json")
	if err := os.WriteFile(user, []byte(`{"mcpServers": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(h.Root, "other")
	otherFile := filepath.Join(other, ".cursor", "mcp.json")
	for _, d := range []string{filepath.Join(other, ".git"), filepath.Dir(otherFile)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	original := []byte(`{"mcpServers": {"notion": {"command": "npx", "args": ["-y", "@notionhq/notion-mcp-server"]}}}` + "\n")
	if err := os.WriteFile(otherFile, original, 0o644); err != nil {
		t.Fatal(err)
	}
	hostsCwd.Store(t, other)
	r, _ := run(t, env{vars: vars}, "proxy", "config", "cursor:notion", "--command", proxyMcpsh, "--write", "--yes")
	wantCode(t, r, ExitOK)

	hostsCwd.Store(t, h.Cwd)
	before := snapshotFiles(t, h.Root)
	r, _ = run(t, env{vars: vars}, "proxy", "config", "cursor:notion", "--undo", "--yes")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, "mcpsh's records of writing cursor:notion's entry are for other folders ("+otherFile+" (mcpServers.notion)); run --undo in the folder the entry is for")
	before.unchanged(t, h.Root, "--undo in another folder")

	hostsCwd.Store(t, other)
	r, _ = run(t, env{vars: vars}, "proxy", "config", "cursor:notion", "--undo", "--yes")
	wantCode(t, r, ExitOK)
	if now, _ := os.ReadFile(otherFile); string(now) != string(original) {
		t.Errorf("undo in its folder:\n%s", now)
	}
}

// hostWritesWhileAsked is a person's answer that comes after the host has
// written its file meanwhile (as a host does while it runs).
type hostWritesWhileAsked struct {
	t      *testing.T
	path   string
	answer *strings.Reader
	done   bool
}

func (h *hostWritesWhileAsked) Read(p []byte) (int, error) {
	if !h.done {
		h.done = true
		data, _ := os.ReadFile(h.path)
		if err := os.WriteFile(h.path, append(data, ' '), 0o644); err != nil {
			h.t.Error(err)
		}
	}
	return h.answer.Read(p)
}

// A write that fails (the host wrote its file while the person was asked)
// leaves mcpsh's records as they were: the entry's last record is not
// replaced by one of an edit that was never made.
func TestProxyConfigFailedWriteKeepsTheRecords(t *testing.T) {
	h := installHosts(t)
	vars := proxyEnv(h)
	path := filepath.Join(h.Home, ".cursor", "mcp.json")
	original, _ := os.ReadFile(path)
	args := []string{"proxy", "config", "cursor:notion", "--command", proxyMcpsh, "--write"}
	r, _ := run(t, env{vars: vars}, append(args, "--yes")...)
	wantCode(t, r, ExitOK)
	records := filepath.Join(vars["XDG_STATE_HOME"], "mcpsh", "proxy-config", "records")
	kept := snapshotFiles(t, records)
	if len(kept) != 1 {
		t.Fatalf("records after the write: %v", kept)
	}
	// The entry is put back by hand, then written again while the host
	// writes the file.
	if err := os.WriteFile(path, original, 0o644); err != nil {
		t.Fatal(err)
	}
	ios, _, out, errOut := iostreams.Test()
	ios.In = &hostWritesWhileAsked{t: t, path: path, answer: strings.NewReader("y\n")}
	ios.SetTTY(true, 100)
	getenv := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	code := Main(context.Background(), args, ios, getenv)
	if code != ExitFailure || !strings.Contains(errOut.String(), "nothing written") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	kept.unchanged(t, records, "a failed write")
}
