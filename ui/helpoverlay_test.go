package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestHelpOverlayListsEveryKeyByView(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	var h helpOverlay
	view := m.renderHelp(&h, 22)
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
		h.Update(keyOf("down"), m.keys)
		all.WriteString(ansi.Strip(m.renderHelp(&h, 22)))
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
	end := h.top
	h.Update(keyOf("down"), m.keys)
	m.renderHelp(&h, 22)
	if h.top != end {
		t.Errorf("scrolled past the end: %d, then %d", end, h.top)
	}
	golden(t, "help/end-80x24", m.renderHelp(&h, 22))
	h.Update(keyOf("g"), m.keys)
	if h.top != 0 {
		t.Errorf("g: top %d", h.top)
	}
	// The section for where the user is comes first.
	m.mode = modeResult
	if first := m.helpSections()[0].title; first != "Result (here)" {
		t.Errorf("in the result view help starts with %q", first)
	}
	for _, size := range [][2]int{{50, 16}, {160, 48}} {
		m.width = size[0]
		assertFits(t, m.renderHelp(&helpOverlay{}, size[1]-2), size[0], size[1]-2)
	}
	m.width = 160
	golden(t, "help/result-160x48", m.renderHelp(&helpOverlay{}, 46))
}
