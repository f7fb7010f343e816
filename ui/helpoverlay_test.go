package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestHelpOverlayListsEveryKeyByView(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	send(m, "?")
	h := &m.helpView
	view := m.renderHelp(22)
	assertFits(t, view, 80, 22)
	plain := ansi.Strip(view)
	if !strings.HasPrefix(plain, "Keys") || !strings.Contains(plain, "Tool list (here)") {
		t.Errorf("the overlay is not titled, or does not start where the user is:\n%s", plain)
	}
	golden(t, "help/browse-80x24", view)
	// Scrolling reaches the last section, and stops there.
	var all strings.Builder
	all.WriteString(plain)
	for range 200 {
		send(m, "down")
		all.WriteString(ansi.Strip(m.renderHelp(22)))
	}
	seen := strings.Join(strings.Fields(all.String()), " ")
	for _, s := range m.helpSections() {
		if !strings.Contains(seen, s.title) {
			t.Errorf("scrolling never shows %q", s.title)
		}
		for _, b := range s.keys {
			if !strings.Contains(seen, b.Help().Desc) {
				t.Errorf("%s: %q (%s) is never shown", s.title, b.Help().Desc, b.Help().Key)
			}
		}
	}
	end := h.body.Top()
	if end == 0 {
		t.Fatal("the overlay did not scroll")
	}
	send(m, "down")
	if h.body.Top() != end {
		t.Errorf("scrolled past the end: %d, then %d", end, h.body.Top())
	}
	golden(t, "help/end-80x24", m.renderHelp(22))
	send(m, "g")
	if h.body.Top() != 0 {
		t.Errorf("g: top %d", h.body.Top())
	}
	// The section for where the user is comes first.
	m.shown().mode = modeResult
	if first := m.helpSections()[0].title; first != "Result (here)" {
		t.Errorf("in the result view help starts with %q", first)
	}
	for _, size := range [][2]int{{50, 16}, {160, 48}} {
		m.width = size[0]
		assertFits(t, m.renderHelp(size[1]-2), size[0], size[1]-2)
	}
	m.width = 160
	golden(t, "help/result-160x48", m.renderHelp(46))
}
