package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/footer"
	"github.com/mcpsh/mcpsh/ui/layout"
)

// View draws the whole screen: a header, the server bar in a workspace, the
// untrusted banner when it applies, the body for the current mode or overlay
// (beside the server sidebar on wide terminals), and a footer with the keys
// that work right now. Every line is cut to the width; there are exactly
// height lines.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "mcpsh"
	if s := m.shown(); s.session != nil {
		v.WindowTitle = "mcpsh · " + s.serverLabel()
	}
	return v
}

func (m *Model) render() string {
	s := m.shown()
	var out []string
	out = append(out, s.header())
	if m.barShown() {
		out = append(out, m.serverBar())
	}
	if s.untrusted() {
		out = append(out, m.st.Banner.Render(termtext.Truncate(" untrusted server: its hints are shown but not believed; every call asks first ", m.screenW)))
	}
	h := s.bodyHeight()
	body := layout.FitLines(m.body(h), m.width, h)
	if m.sidebarShown() {
		body = m.withSidebar(body, h)
	}
	out = append(out, body...)
	out = append(out, m.footer())
	return strings.Join(out, "\n")
}

// layoutShared sizes what every server shares (the session log's pane, the
// help) for the server on screen: its body is a line shorter when its
// untrusted banner shows, and a server laid out in the background must not
// size them for itself.
func (m *Model) layoutShared() {
	m.logPane.SetSize(m.width, m.shown().bodyHeight())
	m.help.SetWidth(m.width)
}

// footer is the keys that work now, after the server's notice when it has
// one: the notice comes first, and the keys keep the rest of the line, never
// less than help and quit, so a notice never hides the way to every key.
func (m *Model) footer() string {
	b := m.bindings()
	s := m.shown()
	if s.status == "" {
		return footer.Render(m.st, m.keys, b, m.width)
	}
	var kept []key.Binding
	for _, x := range b {
		if x.Enabled() && footer.Kept(m.keys, x) {
			kept = append(kept, x)
		}
	}
	least := ansi.StringWidth(footer.Render(m.st, m.keys, kept, m.width))
	if len(kept) < len(b) {
		least += ansi.StringWidth(" • …")
	}
	notice := termtext.Truncate(s.status, max(m.width-least-len(noticeGap), m.width/2))
	return m.st.Warning.Render(notice) + noticeGap + footer.Render(m.st, m.keys, b, m.width-ansi.StringWidth(notice)-len(noticeGap))
}

// noticeGap parts a notice from the keys after it.
const noticeGap = "   "

// body is the dialog on top, or the server's own screen, in h lines.
func (m *Model) body(h int) string {
	if d := m.top(); d != nil {
		return d.view(h)
	}
	return m.shown().body(h)
}
