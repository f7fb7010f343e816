package ui

import (
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// Routing answers in a workspace. A server's commands (connect, list, call,
// read, its events and traffic…) are wrapped where the server makes them
// (serverState.cmd), so that each answer comes back as a serverMsg naming the
// server that asked; the root hands it to that server, whether or not it is on
// screen. The request IDs the answers carry still drop late ones, within each
// server. Nothing is inspected on the way: a batch is built from wrapped
// commands, and what is not a server's own (the spinner's tick, a cursor's
// blink, a quit, the clipboard) is never wrapped.

// serverMsg is an answer for the server whose command made it.
type serverMsg struct {
	srv *serverState
	msg tea.Msg
}

// cmd wraps one of the server's own commands, one that answers with a single
// message of the view's (never a tea.Batch), so that its answer comes back to
// the server.
func (s *serverState) cmd(c tea.Cmd) tea.Cmd {
	if c == nil {
		return nil
	}
	return func() tea.Msg {
		msg := c()
		if msg == nil {
			return nil
		}
		return serverMsg{srv: s, msg: msg}
	}
}

// Update handles one message. It does no I/O: anything that talks to a
// server is returned as a command. The root handles the screen, the keys and
// the inbox; an answer for a server goes to that server (route.go),
// and anything else to the one on screen. It ends by laying out the next
// frame (frame.go), so View only reads.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.route(msg)
	if open := m.openOnReady(); open != nil {
		cmd = tea.Batch(cmd, open)
	}
	if follow := m.followAsks(); follow != nil {
		cmd = tea.Batch(cmd, follow)
	}
	m.prepareFrame()
	return m, cmd
}

func (m *Model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case serverMsg:
		return msg.srv.update(msg.msg)
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m.shown().auditResized()
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.BackgroundColorMsg:
		return m.setBackground(msg.IsDark())
	case spinner.TickMsg:
		if !m.spinning() {
			return nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return cmd
	case askMsg:
		// Each request names its server; one that does not is the screen's.
		return tea.Batch(waitInbox(m.inbox), m.serverOr(msg.ask.srv).onAsk(msg.ask))
	case noticeMsg:
		return tea.Batch(waitInbox(m.inbox), m.serverOr(msg.srv).onNotice(msg.text))
	}
	return m.forwardToFocus(msg)
}

// serverOr is s, or the server on screen when the message names none.
func (m *Model) serverOr(s *serverState) *serverState {
	if s == nil {
		return m.shown()
	}
	return s
}

// forwardToFocus gives other messages (cursor blinks and the like) to the
// dialog on top when it takes them (the picker, the traffic's filter), else
// to the server on screen.
func (m *Model) forwardToFocus(msg tea.Msg) tea.Cmd {
	if d := m.top(); d != nil {
		if cmd, ok := d.update(msg); ok {
			return cmd
		}
	}
	return m.shown().update(msg)
}

// quit ends the view; Run then cancels every server's call in flight and
// closes the sessions.
func (m *Model) quit() tea.Cmd {
	for _, s := range m.servers {
		if s.running != nil {
			s.running.cancel()
		}
	}
	return tea.Quit
}
