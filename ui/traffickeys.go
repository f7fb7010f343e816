package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// onTrafficKey hands a key to the traffic pane, and shows what a copy did.
// It reports false for keys the pane leaves to the overlays' common keys.
func (s *serverState) onTrafficKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	cmd, status, ok := s.traffic.OnKey(msg)
	if status != "" {
		s.status = status
	}
	return cmd, ok
}

// trafficBindings are the traffic pane's keys, for the footer; in its list,
// the keys that switch servers too.
func (s *serverState) trafficBindings() []key.Binding {
	b := s.traffic.Bindings()
	if s.traffic.Filtering() || s.traffic.Opened() {
		return b
	}
	return append(b, s.switchBindings()...)
}
