package ui

import (
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// recheckOpenCall runs after the tool list was refreshed (tools/list_changed,
// or a reconnect). A call being prepared or waiting for confirmation was
// decided on the old declaration: it is decided again on the new one, and
// when the server changed the tool's hints the user is told and asked again.
// Nothing is sent here.
func (s *serverState) recheckOpenCall() {
	switch {
	case s.pending != nil: // the confirmation, over the form
		p := s.pending
		name := p.call.Tool.Name
		cur, ok := s.session.Tool(name)
		if !ok {
			s.closeConfirm()
			s.status = termtext.Line(name) + " is no longer listed by the server: nothing was sent"
			return
		}
		if cur == p.call.Tool {
			return
		}
		if ch := client.HintChange(p.call.Tool, cur); ch != "" {
			p.changed = ch
			// An answer given before the change was for other hints.
			p.call.Approved = false
		}
		p.call.Tool = cur
		p.call.SessionAllowed = s.sessionAllowed(cur)
		p.decision = s.session.Decide(p.call)
		if p.decision.Verdict == policy.Refuse {
			s.closeConfirm()
			s.status = "the server changed " + termtext.Line(name) + ": " + termtext.Line(p.decision.Reason) + "; nothing was sent"
		}
	case s.mode == modeForm && s.form != nil:
		name := s.form.Tool().Name
		cur, ok := s.session.Tool(name)
		if !ok {
			s.mode, s.form = modeBrowse, nil
			s.status = termtext.Line(name) + " is no longer listed by the server: the form was closed, nothing was sent"
			return
		}
		if ch := client.HintChange(s.form.Tool(), cur); ch != "" {
			s.formChange = ch
			s.status = "the server changed " + termtext.Line(name) + "'s hints: " + termtext.Line(ch) + "; you will be asked before it runs"
		}
	}
}
