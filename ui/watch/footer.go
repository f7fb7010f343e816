package watch

import (
	"charm.land/bubbles/v2/key"
	"github.com/mcpsh/mcpsh/ui/keymap"
)

// bindings are the keys that work now, for the footer.
func (m *Model) bindings() []key.Binding {
	k := m.keys
	switch {
	case m.dialog != nil:
		if !m.armed {
			return []key.Binding{k.ForceQuit}
		}
		return []key.Binding{k.Yes, keymap.Relabel(k.No, "refuse"), allowKey(k), keymap.Relabel(k.ScrollDown, "arguments"), k.ForceQuit}
	case m.help:
		return []key.Binding{k.ScrollDown, k.ScrollUp, k.Close, k.Quit}
	case m.typing:
		return []key.Binding{k.AcceptFilter, k.CancelFilter}
	case m.open != nil:
		return []key.Binding{k.ScrollDown, k.ScrollUp, k.Close, k.Help, k.Quit}
	}
	b := []key.Binding{openCall(k), nextProxy(k), k.FilterStatus, k.OpenWorldOnly, filterKey(k)}
	if m.filter.active() {
		b = append(b, k.ClearFilter)
	}
	return append(b, k.Help, k.Quit)
}
