package watch

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
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

// renderFooter draws keys in one line of width, as the interactive view's
// footer does (ui/footer.go): help and quit stay, the others say less
// (their description's first word) from the end, then go from the end.
func renderFooter(st *style.Styles, keys *keymap.KeyMap, b []key.Binding, width int) string {
	var rest, kept []key.Binding
	for _, x := range b {
		if x.Help().Key == keys.Help.Help().Key || x.Help().Key == keys.Quit.Help().Key || x.Help().Key == keys.ForceQuit.Help().Key {
			kept = append(kept, x)
		} else {
			rest = append(rest, x)
		}
	}
	sep := st.Muted.Render(" • ")
	item := func(x key.Binding, short bool) string {
		desc := x.Help().Desc
		if short {
			desc, _, _ = strings.Cut(desc, " ")
		}
		return st.Key.Render(x.Help().Key) + " " + st.KeyDesc.Render(desc)
	}
	join := func(n, short int) string {
		var parts []string
		for i, x := range rest[:n] {
			parts = append(parts, item(x, i >= short))
		}
		if n < len(rest) {
			parts = append(parts, st.Muted.Render("…"))
		}
		for _, x := range kept {
			parts = append(parts, item(x, false))
		}
		return strings.Join(parts, sep)
	}
	for short := len(rest); short >= min(1, len(rest)); short-- {
		if s := join(len(rest), short); ansi.StringWidth(s) <= width {
			return s
		}
	}
	for n := len(rest) - 1; n >= 0; n-- {
		if s := join(n, min(1, n)); ansi.StringWidth(s) <= width {
			return s
		}
	}
	var ks []string
	for _, x := range kept {
		ks = append(ks, st.Key.Render(x.Help().Key))
	}
	return ansi.Truncate(strings.Join(ks, " "), max(width, 0), "")
}
