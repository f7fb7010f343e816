package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/tmuxwidth"
)

// A server whose every text is made of characters terminals count
// differently from Go's tables (fixture scenario widths), in a real
// terminal: every line tmux shows is at most the terminal's width, and the
// rule between the tool list and the detail stands in one column on every
// line, the confirmation dialog's and the result's lines fit too. Before
// termtext settled widths, tmux drew the rule anywhere from column 13 to
// 107 and the server's text wrapped past the header.
func TestTUIDrawsSuspectWidthsInTheirPanes(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	state := t.TempDir()
	shell := fmt.Sprintf("HOME=%s TERM=xterm-256color %s -- %s -scenario widths -state %s; sleep 30",
		state, mcpshBin, fixtureBin, state)
	x.run("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", shell)
	x.waitFor("Destructive (19)")
	check := func(what string, rule bool) {
		t.Helper()
		s := x.screen()
		col := -1
		for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			w, err := tmuxwidth.Line(l)
			if err != nil {
				t.Errorf("%s: line %d: %v", what, i+1, err)
			}
			if w > 120 {
				t.Errorf("%s: line %d is %d cells in a terminal 120 wide: %+q", what, i+1, w, l)
			}
			j := strings.Index(l, "│")
			if !rule || j < 0 {
				continue
			}
			at, _ := tmuxwidth.Line(l[:j])
			if col < 0 {
				col = at
			}
			if at != col {
				t.Errorf("%s: line %d has the rule at column %d, line 1 of the body at %d: %+q", what, i+1, at, col, l)
			}
		}
		if t.Failed() {
			t.Logf("%s, the screen:\n%s", what, s)
		}
	}
	check("the tool list", true)
	x.keys("j", "j", "j", "j")
	check("the fifth tool", true)
	x.keys("Enter")
	x.waitFor("y run it")
	check("the confirmation dialog", false)
	x.keys("y")
	x.waitFor("e edit and run again")
	check("the result", false)
	x.keys("Escape", "q")
}
