package scroll

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/ui/keymap"
	// The -update flag every ui package's tests take (go test ./ui/... -update).
	_ "github.com/mcpsh/mcpsh/ui/internal/uitest"
)

func lines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d", i)
	}
	return out
}

// A tail pane follows the newest line until the user scrolls up, and
// follows again once the user is back at the bottom.
func TestTailFollowsUntilTheUserScrollsUp(t *testing.T) {
	keys := keymap.Default()
	p := NewTail()
	p.SetSize(20, 3)
	p.SetLines(lines(10))
	if p.Top() != 7 {
		t.Fatalf("top %d, want 7 (the bottom)", p.Top())
	}
	p.Append("new")
	if p.Top() != 8 {
		t.Fatalf("after an append top %d, want 8: the pane stopped following", p.Top())
	}
	if !p.Scroll(tea.MouseWheelMsg{Button: tea.MouseWheelUp}, keys) || p.Top() != 5 {
		t.Fatalf("wheel up: top %d, want 5", p.Top())
	}
	p.Append("newer")
	if p.Top() != 5 {
		t.Fatalf("scrolled up, an append moved the window to %d", p.Top())
	}
	p.Scroll(tea.MouseWheelMsg{Button: tea.MouseWheelDown}, keys)
	p.Scroll(tea.MouseWheelMsg{Button: tea.MouseWheelDown}, keys)
	p.Append("newest")
	if p.Top() != p.MaxTop() || p.Visible()[2] != "newest" {
		t.Fatalf("back at the bottom it does not follow: top %d of %d, %q", p.Top(), p.MaxTop(), p.Visible())
	}
}

// Cutting lines above the window keeps the same text on screen; cutting
// into it moves the window to where the cut was.
func TestCutKeepsTheTextOnScreen(t *testing.T) {
	p := Pane{}
	p.SetSize(20, 2)
	p.SetLines(lines(10))
	p.ScrollTo(6)
	p.Cut(1, 3) // lines 1-3, above the window
	if got := p.Visible(); p.Len() != 7 || got[0] != "line 6" || got[1] != "line 7" {
		t.Fatalf("after a cut above: %q (len %d)", got, p.Len())
	}
	if p.Lines()[0] != "line 0" {
		t.Fatalf("the line before the cut moved: %q", p.Lines()[0])
	}
	p.Cut(2, 100) // more than there is: up to the end
	if p.Len() != 2 || p.Top() != 0 {
		t.Fatalf("cut to the end: len %d top %d", p.Len(), p.Top())
	}
}

// Every line View returns fits the width, even lines drawn for a wider pane.
func TestViewFitsTheWidthAndHeight(t *testing.T) {
	p := Pane{}
	p.SetLines([]string{strings.Repeat("wide ", 20), "short", "third"})
	p.SetSize(10, 2)
	got := strings.Split(p.View(), "\n")
	if len(got) != 2 || ansi.StringWidth(got[0]) > 10 || got[1] != "short" {
		t.Fatalf("view %q", got)
	}
	p.SetSize(0, 2)
	if p.View() != "" {
		t.Fatalf("a pane of no width drew %q", p.View())
	}
}

// Page keys move by the page set, or a screenful; the window never leaves
// the lines.
func TestScrollKeysStayInRange(t *testing.T) {
	keys := keymap.Default()
	p := Pane{}
	p.SetSize(20, 4)
	p.SetLines(lines(10))
	press := func(k string) {
		t.Helper()
		var msg tea.KeyPressMsg
		switch k {
		case "pgdown":
			msg = tea.KeyPressMsg{Code: tea.KeyPgDown}
		case "pgup":
			msg = tea.KeyPressMsg{Code: tea.KeyPgUp}
		}
		if !p.Scroll(msg, keys) {
			t.Fatalf("%s is not a scroll key", k)
		}
	}
	press("pgdown")
	if p.Top() != 4 {
		t.Fatalf("page down: top %d, want 4", p.Top())
	}
	press("pgdown")
	press("pgdown")
	if p.Top() != p.MaxTop() || p.MaxTop() != 6 {
		t.Fatalf("past the end: top %d, max %d", p.Top(), p.MaxTop())
	}
	p.SetPage(1)
	press("pgup")
	if p.Top() != 5 {
		t.Fatalf("a page of 1: top %d, want 5", p.Top())
	}
	if p.Scroll(tea.KeyPressMsg{Code: 'x', Text: "x"}, keys) {
		t.Fatal("x scrolled")
	}
}
