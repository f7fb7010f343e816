package watch

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
)

// screens are every screen of the view, each reached from the busy state.
var screens = []struct {
	name string
	open func(m *Model)
}{
	{"all", func(m *Model) {}},
	{"proxy", func(m *Model) { press(m, "]") }},
	{"filtered", func(m *Model) { press(m, "f", "f", "f", "o") }},
	{"typing", func(m *Model) { press(m, "/", "h", "o", "s", "t", ":", "c", "*") }},
	{"detail", func(m *Model) { press(m, "j", "j", "j", "j", "j", "j", "enter") }},
	{"help", func(m *Model) { press(m, "?") }},
}

// screenAt is the busy view at w×h, the question answered or put up as
// the screen needs: the dialog is a screen of its own.
func screenAt(t *testing.T, noColor bool, w, h int, name string, open func(*Model), dialog bool) *Model {
	m, _ := newTest(t, noColor, w, h)
	busy(m)
	if dialog {
		arm(m)
		return m
	}
	arm(m)
	press(m, "n") // the question goes, so the lists show
	feed(m, closedBy("p1", "q1", "refuse", true), decided("p1", 5, "refuse", "", "declined at the console"), ended("p1", 5, "refused", 0, 0, ""))
	open(m)
	return m
}

func TestGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {132, 40}} {
		w, h := size[0], size[1]
		for _, s := range screens {
			m := screenAt(t, true, w, h, s.name, s.open, false)
			got := m.render()
			uitest.AssertFits(t, got, w, h)
			uitest.Golden(t, s.name+"-"+itoa(w)+"x"+itoa(h), got)
		}
		m := screenAt(t, true, w, h, "dialog", nil, true)
		uitest.AssertFits(t, m.render(), w, h)
		uitest.Golden(t, "dialog-"+itoa(w)+"x"+itoa(h), m.render())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Every screen fits every size it is resized to, and is drawn the same
// twice (View changes nothing).
func TestEveryScreenFitsAsItResizes(t *testing.T) {
	sizes := [][2]int{{80, 24}, {120, 40}, {64, 20}, {50, 16}, {200, 60}, {80, 24}}
	all := append(screens, struct {
		name string
		open func(m *Model)
	}{"dialog", nil})
	for _, s := range all {
		m := screenAt(t, false, 80, 24, s.name, s.open, s.name == "dialog")
		for _, size := range sizes {
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			got := m.render()
			what := s.name + " at " + itoa(size[0]) + "x" + itoa(size[1])
			uitest.AssertFits(t, got, size[0], size[1])
			uitest.AssertWidth(t, what, got, size[0])
			uitest.AssertTerminalSafe(t, what, got)
			if n := strings.Count(got, "\n") + 1; n != size[1] {
				t.Errorf("%s: %d lines, want the whole screen, %d", what, n, size[1])
			}
			if again := m.render(); again != got {
				t.Errorf("%s: drawn twice, drawn differently", what)
			}
			// At the largest size everything of the screen shows: what was
			// laid out for a smaller one is laid out again.
			if want := whole[s.name]; size[1] == 60 && !strings.Contains(uitest.Text(got), want) {
				t.Errorf("%s does not show %q:\n%s", what, want, uitest.Text(got))
			}
		}
	}
}

// whole is the last thing each screen shows, when it has the room.
var whole = map[string]string{
	"all": "List notes  list_notes", "proxy": "List notes  list_notes", "filtered": "fetch", "typing": "list_notes",
	"detail": "keeps a digest of it", "help": "denied by a rule", "dialog": "allow delete_note for the rest",
}

var colour = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7]);?[0-9;]*m|\x1b\[[0-9;]*[34]8;`)

func TestNoColorMeansNoColour(t *testing.T) {
	for _, s := range screens {
		m := screenAt(t, true, 100, 30, s.name, s.open, false)
		if got := m.render(); colour.MatchString(got) {
			t.Errorf("%s: NO_COLOR screen has colour codes", s.name)
		}
	}
	m := screenAt(t, true, 100, 30, "dialog", nil, true)
	if colour.MatchString(m.render()) {
		t.Errorf("the dialog under NO_COLOR has colour codes")
	}
	c := screenAt(t, false, 100, 30, "all", func(*Model) {}, false)
	if !colour.MatchString(c.render()) {
		t.Errorf("the colour screen has no colour codes")
	}
}
