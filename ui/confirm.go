package ui

import (
	"encoding/json"
	"strings"

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
}

// renderConfirm draws the dialog: what will run, where, with which arguments,
// and why mcpsh asks. No is the default; only y and a go ahead.
func renderConfirm(p *pendingCall, server string, width int, st *Styles, keys *KeyMap) string {
	inner := min(max(width-6, 30), 76)
	w := &lines{width: inner}
	t := p.call.Tool
	head := "Run this tool?"
	if t.Class() == policy.ClassDestructive {
		head = "Run a destructive tool?"
	}
	w.add(st.DialogTitle.Render(head))
	w.blank()
	w.add(st.Title.Render(termtext.Line(t.Title)) + "  " + st.Name.Render(termtext.Line(t.Name)))
	w.add("on " + termtext.Line(server))
	w.blank()
	w.add(st.Label.Render("arguments"))
	args, _ := json.MarshalIndent(p.call.Args, "  ", "  ")
	argLines := strings.Split("  "+termtext.Sanitize(string(args)), "\n")
	const maxArgLines = 10
	if len(argLines) > maxArgLines {
		argLines = append(argLines[:maxArgLines], "  … "+itoa(len(argLines)-maxArgLines)+" more lines")
	}
	for _, l := range argLines {
		w.add(l)
	}
	w.blank()
	if p.changed != "" {
		w.add(st.Label.Render("the server changed this tool"))
		w.wrap(termtext.Line(p.changed), st.Error)
		w.blank()
	}
	w.add(st.Label.Render("why mcpsh asks"))
	w.wrap(p.decision.Reason, st.Warning)
	w.blank()
	allow := keys.AllowSession.Help()
	w.add(keyHint(st, keys.Yes.Help().Key, "run it") + "   " + keyHint(st, keys.No.Help().Key, "cancel (default)"))
	w.add(keyHint(st, allow.Key, "allow "+termtext.Line(t.Name)+" for the rest of this session"))
	for i, l := range w.out {
		w.out[i] = padTo(l, inner)
	}
	return st.Dialog.Render(strings.Join(w.out, "\n"))
}

func keyHint(st *Styles, k, desc string) string {
	return st.Key.Render(k) + " " + st.KeyDesc.Render(desc)
}
