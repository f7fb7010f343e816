package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
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

func (m *Model) footer() string {
	if s := m.shown(); s.status != "" {
		return m.st.Warning.Render(termtext.Truncate(s.status, m.width))
	}
	return m.footerKeys(m.bindings())
}

// body is the dialog on top, or the server's own screen, in h lines.
func (m *Model) body(h int) string {
	if d := m.top(); d != nil {
		return d.view(h)
	}
	return m.shown().body(h)
}
