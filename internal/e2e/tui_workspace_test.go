package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The workspace in a real terminal: a config of three servers (mcpsh's own
// demo, the TypeScript SDK test server, and one whose command exits), opened
// together by bare `mcpsh`. The bar shows each one's state, ] switches, a call
// on the second server shows in its traffic pane, and quitting prints where
// the session log went.
func TestTUIWorkspaceInATerminal(t *testing.T) {
	t.Parallel()
	ts := tsServer(t)
	x := newTmux(t)
	dir := t.TempDir()
	cfg := map[string]any{"mcpServers": map[string]any{
		"demo":   map[string]any{"command": mcpshBin, "args": []string{"serve-demo"}},
		"ts":     map[string]any{"command": ts[0], "args": ts[1:]},
		"broken": map[string]any{"command": "sh", "args": []string{"-c", "echo giving up >&2; exit 3"}},
	}}
	b, _ := json.Marshal(cfg)
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, b, 0o600); err != nil {
		t.Fatal(err)
	}
	status, stderr := filepath.Join(dir, "status"), filepath.Join(dir, "stderr")
	shell := fmt.Sprintf("HOME=%s XDG_STATE_HOME=%s TERM=xterm-256color %s --config %s 2>%s; echo $? > %s; sleep 30",
		dir, filepath.Join(dir, "state"), mcpshBin, config, stderr, status)
	x.run("new-session", "-d", "-s", "t", "-x", "120", "-y", "30", shell)

	// Every server in the bar, each with its state, in the config's order
	// (by name). broken is first, but it failed to start: the view opens
	// on the first server that is ready instead, demo or ts, whichever
	// answers first.
	x.waitFor("broken ✗ failed: the server exited")
	s := x.waitFor("demo 17 tools", "ts 2") // both ready: their tool counts show
	if strings.Contains(s, "›broken") {
		t.Fatalf("the view opened on the server that failed to start:\n%s", s)
	}
	if strings.Contains(s, "›ts ") {
		x.keys("[")
	}
	x.waitFor("›demo 17 tools", "mcpsh-demo 1.0.0", "Destructive (5)")

	// ] puts ts on screen; call add with its first example there.
	x.keys("]")
	x.waitFor("›ts ", "mcpsh-ts-server 1.0.0")
	x.keys("/", "a", "d", "d", " ", "t", "w", "o", "Enter")
	x.waitFor("Add two numbers")
	x.keys("1") // runs the call with add's first example, no form between
	x.waitFor("2 + 3 = 5")

	// The wire: the call and its answer, with its latency.
	x.keys("T")
	s = x.waitFor("Traffic  ts", "tools/call", "tools/list")
	if !strings.Contains(s, " ms") {
		t.Errorf("no latency in the traffic pane:\n%s", s)
	}
	x.keys("/", "c", "a", "l", "l", "Enter")
	x.waitFor("/ call", "2 of ")
	x.keys("Enter")
	x.waitFor(`"jsonrpc": "2.0"`, "answered in")
	x.keys("Escape", "Escape", "Escape")

	// ] goes round to broken again; R tries it again, and it fails again.
	x.keys("]")
	x.waitFor("›broken", "could not connect", "the server exited with status 3;", "giving up")
	x.keys("R")
	x.waitFor("›broken ✗ failed: the server exited")

	x.keys("q")
	deadline := time.Now().Add(patience)
	for {
		if b, err := os.ReadFile(status); err == nil && len(b) > 0 {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Fatalf("mcpsh exited %s\n%s", code, x.screen())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mcpsh did not quit on q:\n%s", x.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	out, _ := os.ReadFile(stderr)
	if !strings.Contains(string(out), "mcpsh: session log: "+filepath.Join(dir, "state", "mcpsh", "sessions")) {
		t.Fatalf("quitting did not say where the log is; stderr:\n%s", out)
	}
	path := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "mcpsh: session log: "))
	if log, err := os.ReadFile(path); err != nil || !strings.Contains(string(log), `"server":"ts"`) {
		t.Fatalf("the log at %s does not record the call on ts (%v):\n%s", path, err, log)
	}
}
