package watch

import (
	"charm.land/bubbles/v2/key"
	"github.com/mcpsh/mcpsh/ui/keymap"
)

// The console's keys are the view's own (ui/keymap), with the words of
// what they do here: ] and [ switch proxies as they switch servers, the
// calls' list moves, opens and filters as the session log does, and the
// approval answers as the confirmation does.

// section is one group of keys in help and in README's table.
type section struct {
	title string
	keys  []key.Binding
	notes []string
}

// sections are the console's keys by where focus is, for help (?) and
// the README's table (readme_keys_test.go).
func sections(k *keymap.KeyMap) []section {
	return []section{
		{"proxies", []key.Binding{nextProxy(k), prevProxy(k)}, []string{"the first row is every proxy's calls together"}},
		{"calls", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, openCall(k), k.FilterStatus, k.OpenWorldOnly, filterKey(k), k.ClearFilter},
			[]string{"/ takes words of the tool's name or title, a glob (write_*), host:GLOB"}},
		{"typing a filter", []key.Binding{k.AcceptFilter, k.CancelFilter}, nil},
		{"a call", []key.Binding{k.ScrollUp, k.ScrollDown, k.Close}, nil},
		{"approval", []key.Binding{k.Yes, k.No, allowKey(k), k.ScrollUp, k.ScrollDown},
			[]string{"the keys answer only once the dialog has been on screen a moment, so a key typed before it appeared cannot answer it; enter and space never do"}},
		{"anywhere", []key.Binding{k.Help, k.Quit, k.ForceQuit}, nil},
	}
}

func nextProxy(k *keymap.KeyMap) key.Binding { return keymap.Relabel(k.NextServer, "next proxy") }
func prevProxy(k *keymap.KeyMap) key.Binding { return keymap.Relabel(k.PrevServer, "previous proxy") }
func openCall(k *keymap.KeyMap) key.Binding  { return keymap.Relabel(k.OpenEntry, "open the call") }
func filterKey(k *keymap.KeyMap) key.Binding {
	return keymap.Relabel(k.Filter, "filter by tool or host")
}
func allowKey(k *keymap.KeyMap) key.Binding {
	return keymap.Relabel(k.AllowSession, "allow the tool for this proxy's session")
}
