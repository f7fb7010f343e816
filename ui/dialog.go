package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The dialogs: whatever is drawn over a server's screen and takes the keys
// before it. There is one kind of them and one stack, the way crush has one
// Dialog interface and one overlay stack: a server's requests (asks.go), the
// confirmation before a call (confirmdialog.go), and the root's panes: help,
// the session log, the server's output, the audit, the traffic and the server
// picker (overlaydialogs.go). The dialog on top takes the keys and names the
// keys the footer shows, so neither the keys nor the footer has a switch
// over what is open.
//
// A dialog may belong to a server (its request, its confirmation): it stays
// that server's, and it is on top only while that server is on screen, so
// switching servers never lets one server's dialog answer for another. The
// root's own panes belong to none: they stay open over whichever server is
// on screen, and show that server's output, audit or traffic.

// dialog is one dialog on the stack.
type dialog interface {
	// id names the kind of dialog (dialogHelp, dialogAsk…).
	id() string
	// owner is the server the dialog belongs to; nil for the root's own.
	owner() *serverState
	// key handles a key press: the dialog on top gets every key but the
	// one that force-quits.
	key(msg tea.KeyPressMsg) tea.Cmd
	// update gives the dialog a message that is not a key (a cursor's
	// blink); it reports false when the dialog does not take it, and the
	// server on screen gets it.
	update(msg tea.Msg) (tea.Cmd, bool)
	// bindings are the keys that work now, for the footer.
	bindings() []key.Binding
	// view draws the dialog in the body's h lines.
	view(h int) string
	// layout lays out what the next View draws (frame.go).
	layout()
}

// The kinds of dialog.
const (
	dialogAsk     = "ask"     // a server's request (asks.go)
	dialogConfirm = "confirm" // the confirmation before a call
	dialogHelp    = "help"
	dialogLog     = "log"
	dialogServer  = "server" // the server's output
	dialogAudit   = "audit"
	dialogTraffic = "traffic"
	dialogServers = "servers" // the picker of servers (serverpick.go)
)

// dialogStack is the one stack of dialogs, the last pushed on top. The
// root owns it; every server reaches it through common, to put up and take
// down its own dialogs.
type dialogStack struct {
	ds []dialog
}

func (st *dialogStack) push(d dialog) { st.ds = append(st.ds, d) }

// remove takes d off the stack, wherever it is.
func (st *dialogStack) remove(d dialog) {
	st.ds = slices.DeleteFunc(st.ds, func(x dialog) bool { return x == d })
}

// top is the dialog on top for server s on screen: the last pushed that is
// the root's or s's own; nil when none is.
func (st *dialogStack) top(s *serverState) dialog {
	for i := len(st.ds) - 1; i >= 0; i-- {
		if o := st.ds[i].owner(); o == nil || o == s {
			return st.ds[i]
		}
	}
	return nil
}

// of is server s's dialog of the kind id, or nil.
func (st *dialogStack) of(s *serverState, id string) dialog {
	for _, d := range st.ds {
		if d.owner() == s && d.id() == id {
			return d
		}
	}
	return nil
}

// root is the root's own dialog on the stack, or nil: at most one is open,
// and opening another replaces it (openPane).
func (st *dialogStack) root() dialog {
	for _, d := range st.ds {
		if d.owner() == nil {
			return d
		}
	}
	return nil
}
