package watch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
)

// The approval is the interactive view's confirmation (ui/confirm.go), in
// the same shape: what will run, on which server, for which host, its
// class and marks, every argument (scrolling when they do not fit), and
// why mcpsh asks with the hints it turned on. No is the default; y and a
// go ahead.

// dialogFrame is the dialog laid out in a height: its lines above the
// arguments and below them, the arguments drawn for the inner width, the
// room they have and the first one shown.
type dialogFrame struct {
	inner        int
	top, bottom  []string
	args         []string
	room, argTop int
	scrolls      bool
}

// dialogLayout lays q's dialog out in at most height lines: when space is
// short the blank lines go first, then the longer sentences are cut to a
// line each, so the arguments keep some room and the answers show.
func (m *Model) dialogLayout(q *question, height int) dialogFrame {
	f := dialogFrame{inner: min(max(m.width-6, 30), 76), args: q.args}
	if q.args == nil || q.argsW != f.inner {
		f.args = argLines(q.q.Args, f.inner)
	}
	const minArgs = 3
	need := min(minArgs, len(f.args))
	for _, compact := range []bool{false, true} {
		top, bottom := m.dialogParts(q, f.inner, compact)
		f.room = height - 2 - 1 - len(top.Out) - len(bottom.Out)
		for f.room < need {
			n := dropBlank(bottom)
			if n == 0 {
				n = dropBlank(top)
			}
			if n == 0 {
				break
			}
			f.room += n
		}
		f.top, f.bottom = top.Out, bottom.Out
		if f.room >= need {
			break
		}
	}
	f.room = max(f.room, 1)
	f.scrolls = len(f.args) > f.room
	if f.scrolls {
		f.argTop = max(0, min(m.argTop, len(f.args)-f.room))
	}
	return f
}

// renderDialog draws the question on screen in at most height lines.
func (m *Model) renderDialog(height int) string {
	st := m.st
	f := m.dialogLayout(m.dialog, height)
	label := st.Label.Render("arguments")
	shown := f.args
	if f.scrolls {
		shown = f.args[f.argTop : f.argTop+f.room]
		var how []string
		if f.argTop+f.room < len(f.args) {
			how = append(how, m.keys.ScrollDown.Help().Key+" more")
		}
		if f.argTop > 0 {
			how = append(how, m.keys.ScrollUp.Help().Key+" back")
		}
		label += st.Muted.Render(fmt.Sprintf("  lines %d–%d of %d · %s", f.argTop+1, f.argTop+f.room, len(f.args), strings.Join(how, ", ")))
	}
	out := append(append([]string{}, f.top...), termtext.Truncate(label, f.inner))
	out = append(out, shown...)
	out = append(out, f.bottom...)
	for i, l := range out {
		out[i] = termtext.Pad(termtext.Truncate(l, f.inner), f.inner)
	}
	return st.Dialog.Render(strings.Join(out, "\n"))
}

// dialogParts are the dialog's lines above the arguments and below them;
// compact cuts each sentence to one line, for small screens.
func (m *Model) dialogParts(q *question, inner int, compact bool) (top, bottom *layout.Lines) {
	st, qq := m.st, q.q
	wrap := func(l *layout.Lines, text string, style lipgloss.Style) {
		if compact {
			l.Add(style.Render(termtext.Truncate(text, inner)))
			return
		}
		l.Wrap(text, style)
	}
	head := "Run this tool?"
	if qq.Class == policy.ClassDestructive {
		head = "Run a destructive tool?"
	}
	top = &layout.Lines{Width: inner}
	top.Add(st.DialogTitle.Render(head))
	top.Blank()
	name := st.Name.Render(lineOf(qq.Tool))
	if qq.Title != "" && qq.Title != qq.Tool {
		name = st.Title.Render(lineOf(qq.Title)) + "  " + name
	}
	class := st.ClassStyle(qq.Class).Render(lineOf(string(qq.Class)))
	if mk := m.marks(&call{facets: qq.Facets, openWorld: qq.OpenWorld}, false); strings.TrimSpace(mk) != "" {
		class += " " + mk
	}
	if compact {
		top.Add(name + "  " + class)
	} else {
		top.WrapStyled(name + "  " + class)
	}
	server := lineOf(qq.Server)
	if t := q.proxy.info.Server.Transport; t != "" {
		server += " (" + lineOf(t) + ")"
	}
	wrap(top, "on "+server, st.Row)
	host := strings.TrimSpace(lineOf(qq.Host.Name) + " " + lineOf(qq.Host.Version))
	wrap(top, "for the agent in "+host+", through mcpsh proxy", st.Row)
	if qq.OpenWorld {
		wrap(top, overlays.MarkOpenWorld+" open-world: it may reach systems outside the server; the call is flagged in the session log", st.MarkOpenWorld)
	}
	top.Blank()

	bottom = &layout.Lines{Width: inner}
	bottom.Blank()
	bottom.Add(st.Label.Render("why mcpsh asks"))
	wrap(bottom, lineOf(qq.Why), st.Warning)
	if qq.Rule != "" {
		wrap(bottom, "rule: "+lineOf(qq.Rule), st.Muted)
	}
	for _, b := range qq.Basis {
		if b.Decided {
			wrap(bottom, lineOf(b.String()), st.Muted)
		}
	}
	if more := len(m.state.questions) - 1; more > 0 {
		wrap(bottom, fmt.Sprintf("%d more waiting (%d from this proxy)", more, m.state.waitingFor(q.proxy)-1), st.Muted)
	}
	bottom.Blank()
	if !m.armed {
		bottom.Add(st.Muted.Render("the keys answer in a moment…"))
		bottom.Add("")
		return top, bottom
	}
	bottom.Add(keyHint(m, m.keys.Yes.Help().Key, "run it") + "   " + keyHint(m, m.keys.No.Help().Key, "refuse (the default): the agent gets a tool error"))
	allow := keyHint(m, m.keys.AllowSession.Help().Key, "allow "+lineOf(qq.Tool)+" for the rest of this proxy's session")
	if compact {
		bottom.Add(allow)
	} else {
		bottom.WrapStyled(allow)
	}
	return top, bottom
}

func keyHint(m *Model, k, desc string) string {
	return m.st.Key.Render(k) + " " + m.st.KeyDesc.Render(desc)
}

// argLines are the arguments as indented JSON, made safe, long lines
// wrapped under themselves: every value can be read before y.
func argLines(args any, width int) []string {
	if args == nil {
		return []string{"  none"}
	}
	if m, ok := args.(map[string]any); ok && len(m) == 0 {
		return []string{"  none"}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(args); err != nil {
		return []string{"  " + lineOf(fmt.Sprint(args))}
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight("  "+b.String(), "\n"), "\n") {
		l = layout.ExpandTabs(termtext.Sanitize(l))
		indent := len(l) - len(strings.TrimLeft(l, " ")) + 2
		if indent > width/2 {
			indent = 0
		}
		for i, sub := range layout.Wrap(l, width-indent) {
			if i > 0 {
				sub = strings.Repeat(" ", indent) + sub
			}
			out = append(out, sub)
		}
	}
	return out
}

// dropBlank removes the last blank line of l, and reports how many it
// removed.
func dropBlank(l *layout.Lines) int {
	for i := len(l.Out) - 1; i >= 0; i-- {
		if l.Out[i] == "" {
			l.Out = append(l.Out[:i], l.Out[i+1:]...)
			return 1
		}
	}
	return 0
}
