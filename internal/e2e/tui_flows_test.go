package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitWithout waits until the screen shows none of texts.
func (x *tmux) waitWithout(texts ...string) string {
	x.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		s := x.screen()
		found := ""
		for _, t := range texts {
			if strings.Contains(s, t) {
				found = t
				break
			}
		}
		if found == "" {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen still shows %q:\n%s", found, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lineWith is the first line of s that contains sub, "" when none does.
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// The everyday flows at 80×24 on the real binary: the footer and header
// keep what matters, the filter understands safety, 1–9 and enter call
// through the policy, a session allowance is marked and taken back, the
// confirmation fits with all its arguments reachable, the result shows its
// arguments, raw JSON and copies (OSC 52, which tmux takes into a buffer),
// the log pane moves, filters and opens a call, ? lists the keys, and
// quitting says where the log went.
func TestTUIEverydayFlowsAt80x24(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	dir := t.TempDir()
	status, stderr := filepath.Join(dir, "status"), filepath.Join(dir, "stderr")
	shell := fmt.Sprintf("HOME=%s XDG_STATE_HOME=%s TERM=xterm-256color %s --demo 2>%s; echo $? > %s; sleep 30",
		dir, filepath.Join(dir, "state"), mcpshBin, stderr, status)
	x.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell)
	x.run("set-option", "-g", "set-clipboard", "on")

	s := x.waitFor("Read-only (7)", "17 tools")
	footer := lineWith(s, "q quit")
	if !strings.Contains(footer, "? help") {
		t.Fatalf("the footer lost ? help at 80 columns: %q", footer)
	}

	// The filter understands safety: only the destructive group is left.
	x.keys("/", "i", "s", ":", "d", "e", "s", "t", "Enter")
	s = x.waitFor("Destructive (5)", "5 of 17")
	if strings.Contains(s, "Read-only (") || strings.Contains(s, "Write (") {
		t.Fatalf("groups with no match are shown:\n%s", s)
	}

	// enter on pop_note (no arguments) asks at once; a allows it for the session.
	x.keys("G", "k") // the last is rename_note
	x.waitFor("› Pop the newest")
	x.keys("Enter")
	x.waitFor("Run a destructive tool?", "on demo (in-process)", "a allow pop_note")
	x.keys("a")
	x.waitFor("Removed the newest note", "allowed for this session", "arguments none")
	x.keys("Escape")
	s = x.waitFor("› Pop the newest")
	if row := lineWith(s, "› Pop the newest"); !strings.Contains(row, "✓") {
		t.Fatalf("an allowed tool is not marked: %q", row)
	}
	x.keys("u")
	x.waitFor("no longer allowed")
	if row := lineWith(x.screen(), "› Pop the newest"); strings.Contains(row, "✓") {
		t.Fatalf("u left the mark: %q", row)
	}

	// 1 on delete_note calls with its first example, and still asks.
	x.keys("k", "k")
	x.waitFor("› Delete a no")
	x.keys("1")
	x.waitFor("Run a destructive tool?", `"id": 2`) // its example, not the form's empty field
	x.keys("n")
	x.waitWithout("Run a destructive tool?")
	x.keys("Escape")
	x.keys("Escape") // the filter
	x.waitFor("Read-only (7)")

	// echo with a long text: the dialog fits 80×24, says open-world, and
	// scrolls to the end of the arguments.
	x.keys("/", "e", "c", "h", "o", "Enter", "Enter")
	x.waitFor("text*")
	var long strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&long, "word%02d lorem ipsum ", i)
	}
	long.WriteString("END-OF-TEXT")
	x.run("send-keys", "-t", "t", "-l", long.String())
	x.waitFor("END-OF-TEXT")
	x.keys("C-r")
	s = x.waitFor("Run a destructive tool?", "◆ open-world", "y run it", "↓/pgdn more")
	if strings.Contains(s, "END-OF-TEXT") {
		t.Fatalf("the whole text fits: the test does not test scrolling:\n%s", s)
	}
	if n := len(strings.Split(strings.TrimRight(s, "\n"), "\n")); n > 24 {
		t.Fatalf("the screen has %d lines", n)
	}
	if !strings.Contains(s, "╔") || !strings.Contains(s, "╚") {
		t.Fatalf("the dialog does not fit:\n%s", s)
	}
	for range 6 {
		x.keys("PgDn")
	}
	x.waitFor("END-OF-TEXT", "y run it")
	x.keys("y")
	x.waitFor("ok ·", "arguments", "word01 lorem")

	// The raw outcome, then back; c copies what is shown.
	x.keys("v")
	x.waitFor(`"decision": "run"`, `"tool": "echo"`)
	x.keys("v")
	x.waitWithout(`"decision": "run"`)
	x.keys("c")
	x.waitFor("to the clipboard")
	buf := x.run("show-buffer")
	if !strings.Contains(buf, "END-OF-TEXT") {
		t.Fatalf("c did not reach the terminal's clipboard; tmux buffer:\n%s", buf)
	}
	x.keys("Escape", "Escape")

	// The log pane: o keeps open-world calls (echo), enter opens one.
	x.keys("L")
	x.waitFor("Session log", "pop_note", "echo")
	x.keys("o")
	s = x.waitWithout("pop_note")
	if !strings.Contains(s, "echo") {
		t.Fatalf("o hid the open-world call:\n%s", s)
	}
	x.keys("Enter")
	x.waitFor("Arguments as logged", "word01", "decision  run, approved by the user")
	x.keys("Escape")
	x.keys("Escape")
	x.waitFor("Read-only (7)")

	// ? is titled, starts with the keys of where the user is, and scrolls.
	x.keys("?")
	x.waitFor("Keys", "Tool list (here)", "1–21 of ")
	x.keys("PgDn", "PgDn")
	x.waitFor("Argument editor", "21–41 of ")
	x.keys("Escape")
	x.waitFor("Read-only (7)")

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
}
