package ui

import "charm.land/bubbles/v2/key"

// switchBindings are the keys that switch servers, in a workspace.
func (m *Model) switchBindings() []key.Binding {
	if !m.workspace() {
		return nil
	}
	return []key.Binding{m.keys.PrevServer, m.keys.NextServer, m.keys.PickServer}
}
