package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/ui/keymap"
)

// The root's panes as dialogs: help (?), the session log (L), the server's
// output (S), the audit (A), the traffic (T) and the picker of servers (W).
// They belong to no server: they stay open over whichever server is on
// screen, and show its output, audit or traffic. One is open at a time:
// opening another replaces it.

// paneDialog is one of the root's panes. Its keys: first the pane's own
// that come before the rest (a filter being typed, an opened entry), then
// the keys every pane shares (esc or its own key closes it, q quits, the
// keys of the other panes open them instead, the server keys switch
// servers), then the pane's other keys.
type paneDialog struct {
	m    *Model
	kind string
	// toggle is the key that opened the pane; it closes it again.
	toggle key.Binding
	first  func(tea.KeyPressMsg) (tea.Cmd, bool)
	rest   func(tea.KeyPressMsg) tea.Cmd
	keys   func() []key.Binding
	draw   func(h int) string
	lay    func()
	fwd    func(tea.Msg) (tea.Cmd, bool)
}

func (d *paneDialog) id() string          { return d.kind }
func (d *paneDialog) owner() *serverState { return nil }
func (d *paneDialog) view(h int) string   { return d.draw(h) }

func (d *paneDialog) bindings() []key.Binding { return d.keys() }

func (d *paneDialog) layout() {
	if d.lay != nil {
		d.lay()
	}
}

func (d *paneDialog) update(msg tea.Msg) (tea.Cmd, bool) {
	if d.fwd != nil {
		return d.fwd(msg)
	}
	return nil, false
}

func (d *paneDialog) key(msg tea.KeyPressMsg) tea.Cmd {
	if d.first != nil {
		if cmd, ok := d.first(msg); ok {
			return cmd
		}
	}
	m, k := d.m, d.m.keys
	switch {
	case key.Matches(msg, k.Close, d.toggle):
		m.closePane()
		return nil
	case key.Matches(msg, k.Quit) && !m.shown().holdsQuit():
		return m.quit()
	case key.Matches(msg, k.Log):
		return m.openPane(m.logDialog())
	case key.Matches(msg, k.Server):
		return m.openPane(m.serverDialog())
	case key.Matches(msg, k.Help):
		return m.openPane(m.helpDialog())
	case key.Matches(msg, k.Traffic):
		return m.openPane(m.trafficDialog())
	case key.Matches(msg, k.NextServer, k.PrevServer, k.PickServer) && m.workspace():
		cmd, _ := m.switchKey(msg)
		return cmd
	case d.rest != nil:
		return d.rest(msg)
	}
	return nil
}

// openPane puts d on screen in place of the root's pane open now.
func (m *Model) openPane(d dialog) tea.Cmd {
	m.closePane()
	m.dialogs.push(d)
	return nil
}

// closePane closes the root's pane, if one is open.
func (m *Model) closePane() {
	if d := m.dialogs.root(); d != nil {
		m.dialogs.remove(d)
		m.pick.in.Blur()
	}
}

// top is the dialog on top for the server on screen, or nil.
func (m *Model) top() dialog { return m.dialogs.top(m.shown()) }

// paneShown reports whether the root's pane of that kind is on top.
func (m *Model) paneShown(kind string) bool {
	d := m.top()
	return d != nil && d.owner() == nil && d.id() == kind
}

// withQueue are b after the keys for the screen's server's requests as a
// whole (askqueue.go).
func (m *Model) withQueue(b ...key.Binding) []key.Binding {
	return append(m.shown().askQueueBindings(), b...)
}

func (m *Model) helpDialog() dialog {
	m.helpView = helpOverlay{}
	k := m.keys
	return &paneDialog{m: m, kind: dialogHelp, toggle: k.Help,
		rest: func(msg tea.KeyPressMsg) tea.Cmd { m.helpView.Update(msg, m.keys); return nil },
		keys: func() []key.Binding { return m.withQueue(k.ScrollUp, k.ScrollDown, k.Close, k.Help, k.Quit) },
		draw: m.renderHelp, lay: m.layoutHelp,
	}
}

func (m *Model) logDialog() dialog {
	k := m.keys
	return &paneDialog{m: m, kind: dialogLog, toggle: k.Log,
		first: func(msg tea.KeyPressMsg) (tea.Cmd, bool) {
			if m.logPane.WantsKey(msg) {
				return m.logPane.Update(msg), true // a filter being typed, an opened entry
			}
			return nil, false
		},
		rest: func(msg tea.KeyPressMsg) tea.Cmd { return m.logPane.Update(msg) },
		keys: func() []key.Binding {
			b := m.withQueue(m.logPane.Bindings()...)
			if m.logPane.Typing() {
				return b
			}
			return append(b, k.Help, k.Quit)
		},
		draw: func(int) string { return m.logPane.View() },
	}
}

func (m *Model) serverDialog() dialog {
	k := m.keys
	return &paneDialog{m: m, kind: dialogServer, toggle: k.Server,
		rest: func(msg tea.KeyPressMsg) tea.Cmd { return m.shown().serverPane.Update(msg) },
		keys: func() []key.Binding { return m.withQueue(k.ScrollUp, k.ScrollDown, k.Close, k.Quit) },
		draw: func(int) string { return m.shown().serverPane.View() },
	}
}

// auditDialog is the audit's pane; the server fills it (openAudit), again
// for each server brought on screen under it (switchTo).
func (m *Model) auditDialog() dialog {
	k := m.keys
	return &paneDialog{m: m, kind: dialogAudit, toggle: k.Audit,
		rest: func(msg tea.KeyPressMsg) tea.Cmd { return m.shown().auditPane.Update(msg) },
		keys: func() []key.Binding { return m.withQueue(k.ScrollUp, k.ScrollDown, k.Close, k.Quit) },
		draw: func(int) string { return m.shown().auditPane.View(m.spinner.View()) },
	}
}

// trafficDialog is the traffic's pane; it names its own keys, without
// those for the server's requests.
func (m *Model) trafficDialog() dialog {
	return &paneDialog{m: m, kind: dialogTraffic, toggle: m.keys.Traffic,
		first: func(msg tea.KeyPressMsg) (tea.Cmd, bool) { return m.shown().onTrafficKey(msg) },
		keys:  func() []key.Binding { return m.shown().trafficBindings() },
		draw:  func(int) string { s := m.shown(); return s.traffic.View(s.name()) },
		fwd: func(msg tea.Msg) (tea.Cmd, bool) {
			if t := m.shown().traffic; t.Filtering() {
				return t.Forward(msg), true
			}
			return nil, false
		},
	}
}

// pickDialog is the picker of servers: every key is its own.
func (m *Model) pickDialog() dialog {
	k := m.keys
	return &paneDialog{m: m, kind: dialogServers,
		first: func(msg tea.KeyPressMsg) (tea.Cmd, bool) { return m.onPickKey(msg), true },
		keys: func() []key.Binding {
			return []key.Binding{k.SuggestUp, k.SuggestDown, keymap.Relabel(k.Choose, "switch"), k.Close}
		},
		draw: m.renderPick,
		fwd: func(msg tea.Msg) (tea.Cmd, bool) {
			var cmd tea.Cmd
			m.pick.in, cmd = m.pick.in.Update(msg)
			return cmd, true
		},
	}
}
