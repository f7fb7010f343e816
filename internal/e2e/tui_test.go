package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmux drives the built binary in a real terminal, as a person would.
type tmux struct {
	t      *testing.T
	socket string
}

func newTmux(t *testing.T) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		msg := "tmux is not installed (.ci/run installs it)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	x := &tmux{t: t, socket: fmt.Sprintf("mcpsh-e2e-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	// The tmux server, started by the first command, passes its environment
	// on to what runs in it: the test's own HOME (testEnv).
	out, err := command(x.t, "tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-t", "t") }

// waitFor waits until the screen shows every one of texts.
func (x *tmux) waitFor(texts ...string) string {
	x.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		s := x.screen()
		missing := ""
		for _, want := range texts {
			if !strings.Contains(s, want) {
				missing = want
				break
			}
		}
		if missing == "" {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never showed %q:\n%s", missing, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// keys sends keys one by one, with a pause after each. After Escape it
// waits for the screen to change (escapeGrace at most): a program that has
// not read the Escape by the time the next key arrives reads the two as
// Alt+key, and on a busy machine no fixed pause rules that out.
func (x *tmux) keys(keys ...string) {
	for _, k := range keys {
		if k != "Escape" {
			x.run("send-keys", "-t", "t", k)
			time.Sleep(120 * time.Millisecond)
			continue
		}
		before := x.screen()
		x.run("send-keys", "-t", "t", k)
		for deadline := time.Now().Add(escapeGrace); time.Now().Before(deadline) && x.screen() == before; {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// escapeGrace is how long keys waits for an Escape to show. An Escape that
// changes nothing (one too many, on purpose) costs the whole of it.
const escapeGrace = 2 * time.Second

func TestTUIInATerminal(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	dir := t.TempDir()
	status := filepath.Join(dir, "status")
	// The banner's text comes from the environment, so the command line (which
	// the header shows) does not contain it: only the server's stderr does.
	server := fmt.Sprintf(`echo "$BANNER" >&2; exec %s serve-demo`, mcpshBin)
	shell := fmt.Sprintf("HOME=%s TERM=xterm-256color BANNER='banner the server writes to stderr' %s -- sh -c '%s'; echo $? > %s; sleep 30",
		dir, mcpshBin, server, status)
	x.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell)

	s := x.waitFor("Read-only (7)", "Write (5)", "Destructive (5)", "mcpsh · sh · stdio")
	if strings.Contains(s, "banner the server writes") {
		t.Fatalf("the server's stderr reached the screen:\n%s", s)
	}
	x.keys("/", "d", "e", "l", "e", "t", "e")
	s = x.waitFor("Destructive (1)", "Delete a note")
	if strings.Contains(s, "Read-only (") {
		t.Errorf("a group with no match is shown while filtering:\n%s", s)
	}
	x.keys("Enter", "Enter")
	x.waitFor("ctrl+r asks first")
	x.keys("2", "C-r")
	x.waitFor("Run a destructive tool?", "y run it")
	x.keys("y")
	x.waitFor("Deleted note #2", "approved by the user")
	x.keys("S")
	x.waitFor("banner the server writes to stderr")
	x.keys("Escape", "Escape", "q")
	deadline := time.Now().Add(patience)
	for {
		if b, err := os.ReadFile(status); err == nil {
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
	// The terminal is restored: the shell's own screen is back, not mcpsh's.
	if s := x.screen(); strings.Contains(s, "Destructive (") {
		t.Errorf("the alternate screen was not left:\n%s", s)
	}
}

// A server that never finishes the handshake: the view says so once the
// connect timeout has passed, instead of spinning for ever.
func TestTUIConnectsWithATimeout(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	state := t.TempDir()
	shell := fmt.Sprintf("HOME=%s TERM=xterm-256color %s --connect-timeout 1s -- %s -scenario hang-init -state %s; sleep 30",
		state, mcpshBin, fixtureBin, state)
	x.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell)
	x.waitFor("did not finish the handshake in time")
}
