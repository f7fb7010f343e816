package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// The root's keys: onKey gives a key press to the dialog on top (dialog.go),
// or to the server on screen (serverkeys.go, modes.go), and handles the keys
// that open the root's panes and switch servers itself. Like the rest of
// Update they do no I/O: a key that needs the server returns a command.

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	s := m.shown()
	s.status = ""
	m.settled = true
	k := m.keys
	if key.Matches(msg, k.ForceQuit) {
		return m.quit()
	}
	// The dialog on top takes every other key: a server's request, the
	// confirmation, a pane.
	if d := m.top(); d != nil {
		return d.key(msg)
	}
	// What the server's screen takes before anything else: text being
	// typed, the login's cancel.
	if cmd, ok := s.onFocusKey(msg); ok {
		return cmd
	}
	// Keys that work wherever no text is being typed.
	switch {
	case key.Matches(msg, k.Quit) && !s.holdsQuit():
		return m.quit()
	case key.Matches(msg, k.Help):
		return m.openPane(m.helpDialog())
	case key.Matches(msg, k.Log):
		return m.openPane(m.logDialog())
	case key.Matches(msg, k.Server):
		return m.openPane(m.serverDialog())
	case key.Matches(msg, k.Audit) && s.session != nil:
		m.openPane(m.auditDialog())
		return s.openAudit()
	case key.Matches(msg, k.Traffic):
		return m.openPane(m.trafficDialog())
	case key.Matches(msg, k.Close) && s.failedToStart() && m.workspace():
		return m.openPick() // back to the servers, as the picker was
	}
	if cmd, ok := s.onServerKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.switchKey(msg); ok {
		return cmd
	}
	return s.onModeKey(msg)
}

// switchKey handles the keys that switch servers in a workspace: ] and [
// round the ring, W to pick one by name.
func (m *Model) switchKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case !m.workspace():
		return nil, false
	case key.Matches(msg, k.NextServer):
		return m.step(1), true
	case key.Matches(msg, k.PrevServer):
		return m.step(-1), true
	case key.Matches(msg, m.keys.PickServer):
		return m.openPick(), true
	}
	return nil, false
}

// settleInput makes what a search box holds (typed or pasted) safe to draw:
// it only matches text drawn the same way, and the box draws it raw.
func settleInput(in *textinput.Model) {
	if v := in.Value(); termtext.Line(v) != v {
		in.SetValue(termtext.Line(v))
	}
}
