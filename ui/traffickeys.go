package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// onTrafficKey hands a key to the traffic pane, and shows what a copy did.
// It reports false for keys the pane leaves to the overlays' common keys.
func (m *Model) onTrafficKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	cmd, status, ok := m.traffic.OnKey(msg)
	if status != "" {
		m.status = status
	}
	return cmd, ok
}

// trafficBindings are the traffic pane's keys, for the footer; in its list,
// the keys that switch servers too.
func (m *Model) trafficBindings() []key.Binding {
	b := m.traffic.Bindings()
	if m.traffic.Filtering() || m.traffic.Opened() {
		return b
	}
	return append(b, m.switchBindings()...)
}
