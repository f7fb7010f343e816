package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/ui/keymap"
)

// confirmDialog is the confirmation before a call (confirm.go), a dialog of
// the server whose call it is, over that server's form. It takes every key:
// only y and a send the call, n and esc record it declined, its arrows
// scroll the arguments, and anything else, enter and space included, does
// nothing, so a key typed before it appeared cannot answer it.
type confirmDialog struct{ s *serverState }

func (d *confirmDialog) id() string                      { return dialogConfirm }
func (d *confirmDialog) owner() *serverState             { return d.s }
func (d *confirmDialog) key(msg tea.KeyPressMsg) tea.Cmd { return d.s.onConfirmKey(msg) }
func (d *confirmDialog) update(tea.Msg) (tea.Cmd, bool)  { return nil, false }
func (d *confirmDialog) view(h int) string               { return d.s.renderConfirmBody(h) }
func (d *confirmDialog) layout()                         { d.s.layoutConfirm() }

// bindings are the keys for the server's requests as a whole, then the
// dialog's own.
func (d *confirmDialog) bindings() []key.Binding {
	s := d.s
	b := s.askQueueBindings()
	if s.muted {
		b = append(b, keymap.Relabel(s.keys.Mute, "unmute its requests"))
	}
	return append(b, s.confirmBindings()...)
}

// openConfirm asks before p runs: the dialog goes on the stack, over the
// server's form.
func (s *serverState) openConfirm(p *pendingCall) {
	s.closeConfirm()
	s.pending = p
	s.dialogs.push(&confirmDialog{s: s})
}

// closeConfirm takes the confirmation down, answered or dropped.
func (s *serverState) closeConfirm() {
	s.pending = nil
	if d := s.dialogs.of(s, dialogConfirm); d != nil {
		s.dialogs.remove(d)
	}
}
