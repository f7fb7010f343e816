package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
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
	// scrolls says they did not fit when the dialog was last drawn.
	argTop  int
	scrolls bool
	// args are the arguments' lines for argsW cells: the dialog is drawn
	// every frame, and arguments can be large.
	args  []string
	argsW int
}

// Scroll moves the arguments; it reports whether msg was a scrolling key.
// Scrolling never answers the dialog.
func (p *pendingCall) Scroll(msg tea.KeyPressMsg, keys *KeyMap) bool {
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
	p.argTop = max(p.argTop, 0) // the end is clamped when drawn, where the room is known
	return true
}

// onConfirmExtraKey handles the dialog's keys other than its answers.
func (m *Model) onConfirmExtraKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.pending != nil {
		m.pending.Scroll(msg, m.keys)
	}
	return nil
}

// renderConfirmBody is the dialog centred in the body, h lines high.
func (m *Model) renderConfirmBody(h int) string {
	server := m.serverName() + " (" + m.target.Via() + ")"
	if m.target.Trust != policy.Trusted {
		server += ", untrusted"
	}
	dialog := renderConfirmIn(m.pending, server, m.width, h, m.st, m.keys)
	return lipgloss.Place(m.width, h, lipgloss.Center, lipgloss.Center, dialog)
}

// renderConfirm draws the dialog with room for all of it.
func renderConfirm(p *pendingCall, server string, width int, st *Styles, keys *KeyMap) string {
	return renderConfirmIn(p, server, width, 1<<16, st, keys)
}

// renderConfirmIn draws the dialog in at most height lines: what will run,
// on which server, with which arguments (scrolling when they do not fit),
// whether it may reach outside systems, and why mcpsh asks. No is the
// default; only y and a go ahead.
func renderConfirmIn(p *pendingCall, server string, width, height int, st *Styles, keys *KeyMap) string {
	inner := min(max(width-6, 30), 76)
	if p.args == nil || p.argsW != inner {
		p.args, p.argsW = argLines(p.call.Args, inner), inner
	}
	args := p.args
	// The border takes two lines, the arguments' label one. When space is
	// short the blank lines go first, then the longer sentences are cut to a
	// line each, so that the arguments keep some room and the answers show.
	const minArgs = 3
	need := min(minArgs, len(args))
	var top, bottom *lines
	room := 0
	for _, compact := range []bool{false, true} {
		top, bottom = confirmParts(p, server, inner, compact, st, keys)
		room = height - 2 - 1 - len(top.out) - len(bottom.out)
		for room < need {
			n := dropBlank(bottom)
			if n == 0 {
				n = dropBlank(top)
			}
			if n == 0 {
				break
			}
			room += n
		}
		if room >= need {
			break
		}
	}
	room = max(room, 1)
	label := st.Label.Render("arguments")
	shown := args
	p.scrolls = len(args) > room
	if p.scrolls {
		p.argTop = min(p.argTop, len(args)-room)
		shown = args[p.argTop : p.argTop+room]
		var how []string
		if p.argTop+room < len(args) {
			how = append(how, keys.ScrollDown.Help().Key+" more")
		}
		if p.argTop > 0 {
			how = append(how, keys.ScrollUp.Help().Key+" back")
		}
		label += st.Muted.Render(fmt.Sprintf("  lines %d–%d of %d · %s", p.argTop+1, p.argTop+room, len(args), strings.Join(how, ", ")))
	} else {
		p.argTop = 0
	}
	out := append(top.out, termtext.Truncate(label, inner))
	out = append(out, shown...)
	out = append(out, bottom.out...)
	for i, l := range out {
		out[i] = padTo(l, inner)
	}
	return st.Dialog.Render(strings.Join(out, "\n"))
}

// confirmParts are the dialog's lines above the arguments and below them;
// compact cuts each sentence to one line, for small screens.
func confirmParts(p *pendingCall, server string, inner int, compact bool, st *Styles, keys *KeyMap) (top, bottom *lines) {
	t := p.call.Tool
	wrap := func(l *lines, text string, style lipgloss.Style) {
		if compact {
			l.add(style.Render(termtext.Truncate(text, inner)))
			return
		}
		l.wrap(text, style)
	}
	head := "Run this tool?"
	if t.Class() == policy.ClassDestructive {
		head = "Run a destructive tool?"
	}
	top = &lines{width: inner}
	top.add(st.DialogTitle.Render(head))
	top.blank()
	tool := toolHeading(st, t)
	if compact {
		top.add(tool)
	} else {
		top.wrapStyled(tool)
	}
	wrap(top, "on "+termtext.Line(server), st.Row)
	if p.decision.OpenWorld {
		why := "open-world: it may reach systems outside the server; the call is flagged in the session log"
		if !t.Effective().OpenWorld {
			why = "counted as open-world: the server is untrusted; the call is flagged in the session log"
		}
		wrap(top, markOpenWorld+" "+why, st.MarkOpenWorld)
	}
	top.blank()

	bottom = &lines{width: inner}
	bottom.blank()
	if p.changed != "" {
		bottom.add(st.Label.Render("the server changed this tool"))
		wrap(bottom, termtext.Line(p.changed), st.Error)
		bottom.blank()
	}
	bottom.add(st.Label.Render("why mcpsh asks"))
	wrap(bottom, p.decision.Reason, st.Warning)
	bottom.blank()
	bottom.add(keyHint(st, keys.Yes.Help().Key, "run it") + "   " + keyHint(st, keys.No.Help().Key, "cancel (default)"))
	allow := keyHint(st, keys.AllowSession.Help().Key, "allow "+termtext.Line(t.Name)+" for the rest of this session")
	if compact {
		bottom.add(allow)
	} else {
		bottom.wrapStyled(allow)
	}
	return top, bottom
}

// argLines are the arguments as indented JSON, sanitized, with long lines
// wrapped under themselves rather than cut: in the dialog every value can be
// read before y, and the result view shows them the same way.
func argLines(args map[string]any, width int) []string {
	if len(args) == 0 {
		return []string{"  none"}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(args); err != nil {
		return []string{"  " + termtext.Line(fmt.Sprint(args))}
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight("  "+b.String(), "\n"), "\n") {
		l = paneExpandTabs(termtext.Sanitize(l))
		// A long value wraps under itself, indented past its key's start.
		indent := len(l) - len(strings.TrimLeft(l, " ")) + 2
		if indent > width/2 {
			indent = 0
		}
		for i, sub := range paneWrap(l, width-indent) {
			if i > 0 {
				sub = strings.Repeat(" ", indent) + sub
			}
			out = append(out, sub)
		}
	}
	return out
}

// dropBlank removes the last blank line of l, and reports how many it removed.
func dropBlank(l *lines) int {
	for i := len(l.out) - 1; i >= 0; i-- {
		if l.out[i] == "" {
			l.out = append(l.out[:i], l.out[i+1:]...)
			return 1
		}
	}
	return 0
}

func keyHint(st *Styles, k, desc string) string {
	return st.Key.Render(k) + " " + st.KeyDesc.Render(desc)
}
