// Package footer draws the keys that work now in one line, for the
// interactive view and the console of running proxies alike.
package footer

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// Render draws the enabled bindings of b in one line of width. Help and
// quit are never dropped, so the way to every other key stays on screen;
// the rest say less first (a description's first word, from the end of the
// list, the first key last), then go from the end, leaving "…".
func Render(st *style.Styles, keys *keymap.KeyMap, b []key.Binding, width int) string {
	var rest, kept []key.Binding
	for _, x := range b {
		if !x.Enabled() {
			continue
		}
		if Kept(keys, x) {
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
		return st.KeyHint(x.Help().Key, desc)
	}
	// join draws the first n of the rest, the last of them from short on
	// with their descriptions' first words, then help and quit.
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
	// Say less from the end of the list (the keys that matter most come
	// first) up to the first key, then drop keys from the end, then say less
	// of the first too: what the first key does is said whole the longest.
	for short := len(rest); short >= min(1, len(rest)); short-- {
		if s := join(len(rest), short); ansi.StringWidth(s) <= width {
			return s
		}
	}
	for _, short := range []int{1, 0} {
		for n := len(rest) - 1; n >= 0; n-- {
			if s := join(n, min(short, n)); ansi.StringWidth(s) <= width {
				return s
			}
		}
	}
	// Narrower than help and quit themselves: their keys alone.
	var ks []string
	for _, x := range kept {
		ks = append(ks, st.Key.Render(x.Help().Key))
	}
	return ansi.Truncate(strings.Join(ks, " "), max(width, 0), "")
}

// Kept reports whether x is help or quit, which the footer never drops.
func Kept(keys *keymap.KeyMap, x key.Binding) bool {
	return SameKeys(x, keys.Help) || SameKeys(x, keys.Quit) || SameKeys(x, keys.ForceQuit)
}

// SameKeys reports whether a and b answer to the same keys: a relabelled
// binding is still the one it was made from.
func SameKeys(a, b key.Binding) bool { return slices.Equal(a.Keys(), b.Keys()) }
