package watch

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/confirm"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/resultview"
)

// The approval is the interactive view's confirmation (ui/confirm.go), in
// the same shape: what will run, on which server, for which host, its
// class and marks, every argument (scrolling when they do not fit), and
// why mcpsh asks with the hints it turned on. No is the default; y and a
// go ahead.

// dialogLayout lays q's dialog out in at most height lines (ui/confirm).
func (m *Model) dialogLayout(q *question, height int) confirm.Frame {
	args := q.args
	if inner := confirm.Inner(m.width); args == nil || q.argsW != inner {
		args = resultview.ArgLines(q.q.Args, inner)
	}
	parts := func(inner int, compact bool) (top, bottom *layout.Lines) { return m.dialogParts(q, inner, compact) }
	return confirm.Layout(parts, args, m.argTop, m.width, height)
}

// renderDialog draws the question on screen in at most height lines.
func (m *Model) renderDialog(height int) string {
	return confirm.Render(m.dialogLayout(m.dialog, height), m.st, m.keys)
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
	bottom.Add(m.st.KeyHint(m.keys.Yes.Help().Key, "run it") + "   " + m.st.KeyHint(m.keys.No.Help().Key, "refuse (the default): the agent gets a tool error"))
	allow := m.st.KeyHint(m.keys.AllowSession.Help().Key, "allow "+lineOf(qq.Tool)+" for the rest of this proxy's session")
	if compact {
		bottom.Add(allow)
	} else {
		bottom.WrapStyled(allow)
	}
	return top, bottom
}
