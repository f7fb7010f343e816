package ui

import (
	"reflect"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/ui/panes"
)

// Routing answers in a workspace. Every command a server's handler returns
// (connect, list, call, read, its events and traffic…) is wrapped so that its
// answer comes back as a serverMsg naming that server; Update then handles
// it with that server embedded, whether or not it is on screen. The request
// IDs the answers carry still drop late ones, within each server.

// serverMsg is an answer for the server whose handler asked for it.
type serverMsg struct {
	srv *serverState
	msg tea.Msg
}

// rootMsg is a message for the root itself, never for a server: what the
// inbox delivers (each request names its server).
type rootMsg interface{ forRoot() }

func (askMsg) forRoot()    {}
func (noticeMsg) forRoot() {}

var (
	cmdType = reflect.TypeFor[tea.Cmd]()
	// viewPkgs define the messages a server's commands answer with: this
	// package, and the panes (the traffic's).
	viewPkgs = map[string]bool{
		reflect.TypeFor[serverMsg]().PkgPath():        true,
		reflect.TypeFor[panes.TrafficMsg]().PkgPath(): true,
	}
)

// tagged routes the answers of cmd to s. A workspace of one needs no routing.
func (m *Model) tagged(s *serverState, cmd tea.Cmd) tea.Cmd {
	if cmd == nil || !m.workspace() {
		return cmd
	}
	return tagCmd(s, cmd)
}

func tagCmd(s *serverState, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return tagMsg(s, cmd()) }
}

// tagMsg wraps the messages the view defines; Bubble Tea's own (a quit,
// the clipboard, a spinner's tick) pass untouched. Batches and sequences of
// commands are tagged command by command.
func tagMsg(s *serverState, msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case nil, serverMsg, rootMsg:
		return msg
	}
	v := reflect.ValueOf(msg)
	t := v.Type()
	if t.Kind() == reflect.Slice && t.Elem() == cmdType {
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			c, _ := v.Index(i).Interface().(tea.Cmd)
			out.Index(i).Set(reflect.ValueOf(tagCmd(s, c)))
		}
		return out.Interface()
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if viewPkgs[t.PkgPath()] {
		return serverMsg{srv: s, msg: msg}
	}
	return msg
}
