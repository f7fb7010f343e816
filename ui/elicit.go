package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// elicitDialog is a server's form (elicitation, form mode): its message and
// the form built from its requestedSchema, defaults filled in, so what is sent
// is what the user sees. The form checks the answer as the client will; an
// answer it refuses never leaves the dialog.
type elicitDialog struct {
	ask  *serverAsk
	form *form.ArgForm
	st   *style.Styles
	keys *keymap.KeyMap

	width, height int
}

// elicitFormName names the form in messages, as the client's checks do.
const elicitFormName = "the server's form"

// elicitMessageLines caps the server's message above the form; the form
// needs the room more.
const elicitMessageLines = 6

func newElicitDialog(a *serverAsk, st *style.Styles, keys *keymap.KeyMap) *elicitDialog {
	r := a.elicit
	schema := client.ReadSchema(elicitFormName, "requested", r.Schema)
	f := form.NewSchemaForm(elicitFormName, schema, r.Validate, st, keys, form.WithDefaultsFilled(), form.WithTitleLabels())
	return &elicitDialog{ask: a, form: f, st: st, keys: keys}
}

func (d *elicitDialog) key(msg tea.KeyPressMsg) (*askReply, tea.Cmd) {
	k := d.keys
	switch {
	case key.Matches(msg, k.Accept):
		content, ok := d.form.Args()
		if !ok {
			return nil, nil // the form shows what is wrong
		}
		return &askReply{elicit: &client.ElicitResponse{Action: client.ElicitAccept, Content: content}}, nil
	case key.Matches(msg, k.Decline):
		return &askReply{elicit: &client.ElicitResponse{Action: client.ElicitDecline}}, nil
	case key.Matches(msg, k.Dismiss) && !d.form.Picking():
		return &askReply{elicit: &client.ElicitResponse{Action: client.ElicitCancel}}, nil
	}
	return nil, d.form.Update(msg)
}

func (d *elicitDialog) update(msg tea.Msg) tea.Cmd { return d.form.Update(msg) }

func (d *elicitDialog) focus() tea.Cmd { return d.form.Focus() }

func (d *elicitDialog) setSize(width, height int) {
	d.width, d.height = width, height
	d.form.SetSize(width, max(height-len(d.head()), 1))
}

// head is the dialog's title, the server's message and a rule.
func (d *elicitDialog) head() []string {
	w := &layout.Lines{Width: max(d.width, 1)}
	w.Add(d.st.DialogTitle.Render(askerName(d.ask.elicit.Server) + " asks for input"))
	msg := layout.WrapCapped(termtext.Sanitize(d.ask.elicit.Message), d.width, elicitMessageLines)
	for _, l := range msg {
		w.Add(d.st.Row.Render(l))
	}
	w.Add(d.st.Muted.Render(strings.Repeat("─", max(d.width, 1))))
	return w.Out
}

func (d *elicitDialog) view() string {
	return strings.Join(d.head(), "\n") + "\n" + d.form.View()
}

func (d *elicitDialog) bindings() []key.Binding {
	k := d.keys
	b := []key.Binding{k.Accept, k.Decline, k.Dismiss}
	return append(b, d.form.ShortHelp()...)
}
