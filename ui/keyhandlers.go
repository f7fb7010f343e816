package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// The root's keys: onKey routes a key press to the server's dialog, the
// overlay, or the server on screen (serverkeys.go, modes.go), and handles the
// keys that open overlays and switch servers itself. Like the rest of Update
// they do no I/O: a key that needs the server returns a command.

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	s := m.shown()
	s.status = ""
	k := m.keys
	if key.Matches(msg, k.ForceQuit) {
		return m.quit()
	}
	// A server's request comes first, over whatever is on screen.
	if s.dialog != nil {
		return s.onDialogKey(msg)
	}
	switch m.overlay {
	case overlayNone:
	case overlayServers:
		return m.onPickKey(msg)
	case overlayTraffic:
		if cmd, ok := s.onTrafficKey(msg); ok {
			return cmd
		}
		return m.onOverlayKey(msg)
	default:
		return m.onOverlayKey(msg)
	}
	// What the server's screen takes before anything else: text being
	// typed, the confirmation's answers, the login's cancel.
	if cmd, ok := s.onFocusKey(msg); ok {
		return cmd
	}
	// Keys that work wherever no text is being typed.
	switch {
	case key.Matches(msg, k.Quit) && !s.holdsQuit():
		return m.quit()
	case key.Matches(msg, k.Help):
		m.overlay, m.helpView = overlayHelp, helpOverlay{}
		return nil
	case key.Matches(msg, k.Log):
		m.overlay = overlayLog
		return nil
	case key.Matches(msg, k.Server):
		m.overlay = overlayServer
		return nil
	case key.Matches(msg, k.Audit) && s.session != nil:
		m.overlay = overlayAudit
		return s.openAudit()
	case key.Matches(msg, k.Traffic):
		m.overlay = overlayTraffic
		return nil
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

func (m *Model) onOverlayKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.overlay == overlayLog && m.logPane.WantsKey(msg) {
		return m.logPane.Update(msg) // a filter being typed, an opened entry
	}
	switch {
	case key.Matches(msg, k.Close),
		m.overlay == overlayHelp && key.Matches(msg, k.Help),
		m.overlay == overlayLog && key.Matches(msg, k.Log),
		m.overlay == overlayServer && key.Matches(msg, k.Server),
		m.overlay == overlayAudit && key.Matches(msg, k.Audit):
		m.overlay = overlayNone
		return nil
	case m.overlay == overlayTraffic && key.Matches(msg, k.Traffic):
		m.overlay = overlayNone
		return nil
	case key.Matches(msg, k.Quit) && !m.shown().holdsQuit():
		return m.quit()
	case key.Matches(msg, k.Log):
		m.overlay = overlayLog
	case key.Matches(msg, k.Server):
		m.overlay = overlayServer
	case key.Matches(msg, k.Help):
		m.overlay, m.helpView = overlayHelp, helpOverlay{}
	case key.Matches(msg, k.Traffic):
		m.overlay = overlayTraffic
	case key.Matches(msg, k.NextServer, k.PrevServer, m.keys.PickServer) && m.workspace():
		cmd, _ := m.switchKey(msg)
		return cmd
	case m.overlay == overlayLog:
		return m.logPane.Update(msg)
	case m.overlay == overlayHelp:
		m.helpView.Update(msg, m.keys)
	case m.overlay == overlayServer:
		return m.shown().serverPane.Update(msg)
	case m.overlay == overlayAudit:
		return m.shown().auditPane.Update(msg)
	}
	return nil
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
