// Package keymap is the interactive view's one keymap: every key it answers
// to, grouped by where focus is, with the help text the footer and the help
// overlay show.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is every key the TUI answers to, grouped by where focus is. Help and
// the footer are generated from it, so they cannot drift from the keys.
type KeyMap struct {
	// Anywhere.
	Quit, ForceQuit, Help, Log, Server, Audit key.Binding

	// The tool list.
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Filter, ClearFilter, Call, Example      key.Binding
	DetailUp, DetailDown                    key.Binding

	// Typing a filter: a new one starts empty; RecallFilter brings back
	// the one it replaced, to edit.
	AcceptFilter, CancelFilter, RecallFilter key.Binding

	// The argument editor.
	NextField, PrevField, Cycle, Run, Back, ToggleJSON, Examples, ExampleN key.Binding
	// Newline breaks a text field's line: enter moves to the next field.
	Newline key.Binding

	// The example picker.
	PickExample key.Binding

	// The confirmation dialog. Enter and Space are deliberately not bound: a
	// key typed before the dialog appeared must not approve it.
	Yes, No, AllowSession key.Binding

	// A call in flight.
	CancelCall key.Binding

	// The result view and the panes.
	ScrollUp, ScrollDown, Edit, Close key.Binding

	// The server picker, and a failed connection.
	Choose, Retry, Login key.Binding

	// The server's views: tools, resources, prompts.
	ViewTools, ViewResources, ViewPrompts, NextView key.Binding

	// The resource viewer: save a blob, follow the resource's updates.
	Save, Subscribe key.Binding
	// Saving: an existing file is replaced only on Overwrite.
	SaveHere, Overwrite, KeepFile key.Binding

	// A template's or prompt's arguments, with the server's completions.
	NextArg, PrevArg, SuggestDown, SuggestUp, PickSuggestion key.Binding

	// A server's request: elicitation (a form, or a URL to visit) and
	// sampling. Like the confirmation dialog, none of them answers to Enter or
	// Space. In the form and the reply, letters are text, so the answers are
	// control keys; the URL dialog has no text, so they are letters.
	Accept, Decline, Dismiss key.Binding
	OpenURL                  key.Binding

	// What a server asks, as a whole: put its requests aside to answer
	// later (and back), decline every one it has waiting, mute it (its
	// requests are declined at once until unmuted). In a dialog the keys are
	// control keys, as the answers are; Mute works where no text is typed.
	AskLater, DeclineAll, MuteAsks, Mute key.Binding

	// The workspace: several servers in one view.
	NextServer, PrevServer, PickServer, Reconnect key.Binding

	// The traffic pane, and lists of entries (the log pane): open one, copy
	// it, filter by status, only open-world calls.
	Traffic, OpenEntry, Copy, FilterStatus, OpenWorldOnly key.Binding

	// The result view's raw JSON, and taking back an allowance for the session.
	RawJSON, Unallow key.Binding
}

// Default returns mcpsh's keys.
func Default() *KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return &KeyMap{
		Quit:      b([]string{"q"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Help:      b([]string{"?"}, "?", "help"),
		Log:       b([]string{"L"}, "L", "session log"),
		Server:    b([]string{"S"}, "S", "server output"),
		Audit:     b([]string{"A"}, "A", "audit the server"),

		Up:          b([]string{"up", "k"}, "↑/k", "up"),
		Down:        b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:      b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:    b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:         b([]string{"home", "g"}, "g", "top"),
		Bottom:      b([]string{"end", "G"}, "G", "bottom"),
		Filter:      b([]string{"/"}, "/", "filter"),
		ClearFilter: b([]string{"esc"}, "esc", "clear filter"),
		Call:        b([]string{"enter"}, "enter", "call"),
		Example:     b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "call with example"),
		DetailUp:    b([]string{"K"}, "K", "scroll detail up"),
		DetailDown:  b([]string{"J"}, "J", "scroll detail down"),

		AcceptFilter: b([]string{"enter"}, "enter", "accept filter"),
		CancelFilter: b([]string{"esc"}, "esc", "cancel filter"),
		RecallFilter: b([]string{"up"}, "↑", "the previous filter"),

		NextField:  b([]string{"tab", "down"}, "tab/↓", "next field"),
		PrevField:  b([]string{"shift+tab", "up"}, "shift+tab/↑", "previous field"),
		Cycle:      b([]string{"space", "left", "right"}, "space/←/→", "change choice"),
		Newline:    b([]string{"alt+enter", "ctrl+j"}, "alt+enter", "new line (or ctrl+j)"),
		Run:        b([]string{"ctrl+r"}, "ctrl+r", "run"),
		Back:       b([]string{"esc"}, "esc", "back"),
		ToggleJSON: b([]string{"ctrl+t"}, "ctrl+t", "form/JSON"),
		Examples:   b([]string{"ctrl+e"}, "ctrl+e", "examples"),
		ExampleN:   b([]string{"alt+1", "alt+2", "alt+3", "alt+4", "alt+5", "alt+6", "alt+7", "alt+8", "alt+9"}, "alt+1-9", "fill example"),

		PickExample: b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "enter"}, "1-9/enter", "use example"),

		Yes:          b([]string{"y"}, "y", "run it"),
		No:           b([]string{"n", "esc"}, "n/esc", "cancel"),
		AllowSession: b([]string{"a"}, "a", "allow for this session"),

		CancelCall: b([]string{"esc"}, "esc", "cancel the call"),

		ScrollUp:   b([]string{"up", "k", "pgup"}, "↑/pgup", "scroll up"),
		ScrollDown: b([]string{"down", "j", "pgdown"}, "↓/pgdn", "scroll down"),
		Edit:       b([]string{"e"}, "e", "edit and run again"),
		Close:      b([]string{"esc"}, "esc", "back"),

		Choose: b([]string{"enter"}, "enter", "connect"),
		Retry:  b([]string{"r"}, "r", "try again"),
		Login:  b([]string{"l"}, "l", "log in"),

		ViewTools:     b([]string{"t"}, "t", "tools"),
		ViewResources: b([]string{"r"}, "r", "resources"),
		ViewPrompts:   b([]string{"p"}, "p", "prompts"),
		NextView:      b([]string{"tab"}, "tab", "next view"),

		Save:      b([]string{"w"}, "w", "save to a file"),
		Subscribe: b([]string{"s"}, "s", "follow updates"),
		SaveHere:  b([]string{"enter"}, "enter", "save"),
		Overwrite: b([]string{"y"}, "y", "replace the file"),
		KeepFile:  b([]string{"n", "esc"}, "n/esc", "keep it"),

		NextArg:        b([]string{"tab"}, "tab", "next field"),
		PrevArg:        b([]string{"shift+tab"}, "shift+tab", "previous field"),
		SuggestDown:    b([]string{"down", "ctrl+n"}, "↓", "next suggestion"),
		SuggestUp:      b([]string{"up", "ctrl+p"}, "↑", "previous suggestion"),
		PickSuggestion: b([]string{"enter"}, "enter", "use suggestion"),

		Accept:  b([]string{"ctrl+s"}, "ctrl+s", "accept"),
		Decline: b([]string{"ctrl+x"}, "ctrl+x", "decline"),
		Dismiss: b([]string{"esc"}, "esc", "cancel"),
		OpenURL: b([]string{"ctrl+o"}, "ctrl+o", "open in the browser"),

		AskLater:   b([]string{"ctrl+l"}, "ctrl+l", "later"),
		DeclineAll: b([]string{"ctrl+y"}, "ctrl+y", "decline all"),
		MuteAsks:   b([]string{"ctrl+q"}, "ctrl+q", "mute the server"),
		Mute:       b([]string{"M"}, "M", "mute or unmute the server's requests"),

		NextServer: b([]string{"]"}, "]", "next server"),
		PrevServer: b([]string{"["}, "[", "previous server"),
		PickServer: b([]string{"W"}, "W", "pick a server"),
		Reconnect:  b([]string{"R"}, "R", "reconnect"),

		Traffic:       b([]string{"T"}, "T", "traffic"),
		OpenEntry:     b([]string{"enter"}, "enter", "open"),
		Copy:          b([]string{"c"}, "c", "copy"),
		FilterStatus:  b([]string{"f"}, "f", "filter by status"),
		OpenWorldOnly: b([]string{"o"}, "o", "open-world only"),

		RawJSON: b([]string{"v"}, "v", "raw JSON"),
		Unallow: b([]string{"u"}, "u", "stop allowing"),
	}
}

// Relabel is b with another description, for a key that means something
// else where it is used (enter calls a tool, reads a resource).
func Relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
