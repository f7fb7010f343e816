package ui

import tea "charm.land/bubbletea/v2"

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
