package ui

import (
	tea "charm.land/bubbletea/v2"
)

// The workspace: every server the view was opened on, each in its own
// serverState. The servers connect in parallel, each in its own command, and
// one that is slow or broken holds up nobody: its state says so in the server
// bar while the others are used. A single server named on the command line is
// a workspace of one, drawn as mcpsh always drew one server.

// serverSpecs are the servers the options name: the target, or every choice;
// with neither, one that says how to name a server.
func (m *Model) serverSpecs() []Choice {
	o := m.opts
	switch {
	case o.Target != nil:
		return []Choice{{Name: o.Target.Label(), Transport: string(o.Target.Kind), Where: o.Target.Via(),
			Target: *o.Target, Auth: o.Client.Auth, Roots: o.Client.Roots}}
	case len(o.Choices) > 0:
		return o.Choices
	}
	return []Choice{{Name: "no server", Problem: "no server named: start mcpsh with --demo, -s NAME, --url URL or -- COMMAND"}}
}

// switchTo puts server i on screen. The root's pane stays open over the new
// server (its output, its traffic, its audit); the dialogs of the server
// left stay with it.
func (m *Model) switchTo(i int) tea.Cmd {
	if i < 0 || i >= len(m.servers) || i == m.cur {
		return nil
	}
	m.cur = i
	s := m.shown()
	if s.laid != [2]int{m.width, s.bodyHeight()} {
		s.layout()
	}
	m.layoutShared()
	if d := m.dialogs.root(); d != nil && d.id() == dialogAudit {
		if s.session == nil {
			m.closePane()
			return nil
		}
		return s.openAudit()
	}
	return nil
}

// openOnReady gives the screen to the first server that is ready when the
// one the view opened on (the first by name) failed to start, until the
// user presses a key: from then on the user chose where to be. A first
// server still connecting keeps the screen.
func (m *Model) openOnReady() tea.Cmd {
	if m.settled || !m.workspace() {
		return nil
	}
	switch p, _ := m.shown().phase(); p {
	case phaseReady:
		m.settled = true
		return nil
	case phaseConnecting:
		return nil
	}
	for i, s := range m.servers {
		if p, _ := s.phase(); p == phaseReady {
			m.settled = true
			return m.switchTo(i)
		}
	}
	return nil
}

// step switches to the next (1) or previous (-1) server, round the ring.
func (m *Model) step(dir int) tea.Cmd {
	n := len(m.servers)
	if n < 2 {
		return nil
	}
	m.setAskReturn(nil) // the user chose where to be
	return m.switchTo(((m.cur+dir)%n + n) % n)
}

// followAsks puts on screen a server that waits on the user while the one
// on screen does not, and goes back to where the user was once every request
// is answered.
func (m *Model) followAsks() tea.Cmd {
	if m.shown().asking() != nil || !m.workspace() {
		return nil
	}
	for i, s := range m.servers {
		if s.asking() != nil {
			if m.askReturn == nil {
				m.setAskReturn(m.shown())
			}
			return m.switchTo(i)
		}
	}
	if r := m.askReturn; r != nil {
		m.setAskReturn(nil)
		for i, s := range m.servers {
			if s == r {
				return m.switchTo(i)
			}
		}
	}
	return nil
}

// setAskReturn keeps the server to go back to once the requests of the
// others are answered, and tells every other server whose screen it takes
// while it asks.
func (m *Model) setAskReturn(r *serverState) {
	m.askReturn = r
	for _, s := range m.servers {
		s.displaced = ""
		if r != nil && s != r {
			s.displaced = r.name()
		}
	}
}

// spinning reports whether anything drawn waits with a spinner: the screen,
// or a server in the bar that connects or runs a call.
func (m *Model) spinning() bool {
	if m.shown().busy() {
		return true
	}
	for _, s := range m.servers {
		if s.mode == modeConnecting || s.mode == modeLogin || s.running != nil {
			return true
		}
	}
	return false
}
