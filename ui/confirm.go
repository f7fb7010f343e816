package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/confirm"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/resultview"
	"github.com/mcpsh/mcpsh/ui/style"
)

// pendingCall is a call waiting for the user's answer in the confirmation dialog.
// Nothing has been sent: the dialog only ever leads to Session.Do after y or a.
type pendingCall struct {
	call     *client.Call
	decision policy.Decision
	// changed says how the server re-declared the tool since the user first
	// saw it; the dialog says so, and only a new y runs it.
	changed string
	// argTop is the first line of the arguments on screen: a call with many
	// arguments scrolls inside the dialog, so every one can be read before y.
	// scrolls says they do not fit the dialog as it was last laid out.
	argTop  int
	scrolls bool
	// args are the arguments' lines for argsW cells, drawn when the dialog
	// is laid out: it is drawn every frame, and arguments can be large.
	args  []string
	argsW int
}

// Scroll moves the arguments; it reports whether msg was a scrolling key.
// Scrolling never answers the dialog.
func (p *pendingCall) Scroll(msg tea.KeyPressMsg, keys *keymap.KeyMap) bool {
	switch {
	case key.Matches(msg, keys.PageUp):
		p.argTop -= 5
	case key.Matches(msg, keys.PageDown):
		p.argTop += 5
	case key.Matches(msg, keys.ScrollUp):
		p.argTop--
	case key.Matches(msg, keys.ScrollDown):
		p.argTop++
	default:
		return false
	}
	p.argTop = max(p.argTop, 0) // the end is clamped by the layout, which knows the room
	return true
}

// onConfirmExtraKey handles the dialog's keys other than its answers.
func (s *serverState) onConfirmExtraKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.pending != nil && s.pending.Scroll(msg, s.keys) {
		s.layoutConfirm()
	}
	return nil
}

// layoutConfirm lays the dialog out for the body (frame.go): it draws the
// arguments for its width once, says whether they scroll, and keeps them
// scrolled within their room.
func (s *serverState) layoutConfirm() {
	p := s.pending
	if p == nil {
		return
	}
	f := confirmLayout(p, s.confirmServer(), s.width, s.bodyHeight(), s.st, s.keys)
	p.args, p.argsW = f.Args, f.Inner
	p.argTop, p.scrolls = f.ArgTop, f.Scrolls
}

// confirmServer is how the dialog names the server.
func (s *serverState) confirmServer() string {
	server := s.serverLabel() + " (" + s.target.Via() + ")"
	if s.target.Trust != policy.Trusted {
		server += ", untrusted"
	}
	return server
}

// renderConfirmBody is the dialog centred in the body, h lines high.
func (s *serverState) renderConfirmBody(h int) string {
	dialog := renderConfirmIn(s.pending, s.confirmServer(), s.width, h, s.st, s.keys)
	return lipgloss.Place(s.width, h, lipgloss.Center, lipgloss.Center, dialog)
}

// renderConfirm draws the dialog with room for all of it.
func renderConfirm(p *pendingCall, server string, width int, st *style.Styles, keys *keymap.KeyMap) string {
	return renderConfirmIn(p, server, width, 1<<16, st, keys)
}

// confirmLayout lays the dialog out in at most height lines (ui/confirm).
// It writes nothing: p's arguments are drawn again when they were drawn for
// another width.
func confirmLayout(p *pendingCall, server string, width, height int, st *style.Styles, keys *keymap.KeyMap) confirm.Frame {
	args := p.args
	if inner := confirm.Inner(width); args == nil || p.argsW != inner {
		args = resultview.ArgLines(p.call.Args, inner)
	}
	parts := func(inner int, compact bool) (top, bottom *layout.Lines) {
		return confirmParts(p, server, inner, compact, st, keys)
	}
	return confirm.Layout(parts, args, p.argTop, width, height)
}

// renderConfirmIn draws the dialog in at most height lines: what will run,
// on which server, with which arguments (scrolling when they do not fit),
// whether it may reach outside systems, and why mcpsh asks. No is the
// default; only y and a go ahead.
func renderConfirmIn(p *pendingCall, server string, width, height int, st *style.Styles, keys *keymap.KeyMap) string {
	return confirm.Render(confirmLayout(p, server, width, height, st, keys), st, keys)
}

// confirmParts are the dialog's lines above the arguments and below them;
// compact cuts each sentence to one line, for small screens.
func confirmParts(p *pendingCall, server string, inner int, compact bool, st *style.Styles, keys *keymap.KeyMap) (top, bottom *layout.Lines) {
	t := p.call.Tool
	wrap := func(l *layout.Lines, text string, style lipgloss.Style) {
		if compact {
			l.Add(style.Render(termtext.Truncate(text, inner)))
			return
		}
		l.Wrap(text, style)
	}
	head := "Run this tool?"
	if t.Class() == policy.ClassDestructive {
		head = "Run a destructive tool?"
	}
	top = &layout.Lines{Width: inner}
	top.Add(st.DialogTitle.Render(head))
	top.Blank()
	tool := toolHeading(st, t)
	if compact {
		top.Add(tool)
	} else {
		top.WrapStyled(tool)
	}
	wrap(top, "on "+termtext.Line(server), st.Row)
	if p.decision.OpenWorld {
		why := "open-world: it may reach systems outside the server; the call is flagged in the session log"
		if !t.Effective().OpenWorld {
			why = "counted as open-world: the server is untrusted; the call is flagged in the session log"
		}
		wrap(top, overlays.MarkOpenWorld+" "+why, st.MarkOpenWorld)
	}
	top.Blank()

	bottom = &layout.Lines{Width: inner}
	bottom.Blank()
	if p.changed != "" {
		bottom.Add(st.Label.Render("the server changed this tool"))
		wrap(bottom, termtext.Line(p.changed), st.Error)
		bottom.Blank()
	}
	bottom.Add(st.Label.Render("why mcpsh asks"))
	wrap(bottom, p.decision.Reason, st.Warning)
	// Each hint the question turned on, and whose word it is: a server's
	// claim, the spec's default, or not believed.
	for _, b := range p.decision.Deciding() {
		wrap(bottom, termtext.Line(b.String()), st.Muted)
	}
	bottom.Blank()
	bottom.Add(st.KeyHint(keys.Yes.Help().Key, "run it") + "   " + st.KeyHint(keys.No.Help().Key, "cancel (default)"))
	allow := st.KeyHint(keys.AllowSession.Help().Key, "allow "+termtext.Line(t.Name)+" for the rest of this session")
	if compact {
		bottom.Add(allow)
	} else {
		bottom.WrapStyled(allow)
	}
	return top, bottom
}
