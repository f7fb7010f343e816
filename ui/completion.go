package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/layout"
)

// The template and prompt forms (form.StringForm) in the model: opening one,
// its keys, and the completions asked for while the user types. Each change
// schedules a request after completeDelay; only the last one scheduled is
// sent, and only its answer is shown.

func (m *Model) openStringForm(f *form.StringForm, values map[string]string) tea.Cmd {
	f.SetValues(values)
	m.strForm = f
	m.mode = modeArgs
	m.layout()
	return tea.Batch(f.Focus(), m.askCompletion())
}

// askCompletion schedules a completion request for the focused field.
func (m *Model) askCompletion() tea.Cmd {
	f := m.strForm
	if f == nil || !f.Completes() || f.Len() == 0 {
		return nil
	}
	f.Want = m.nextID()
	return m.cmd(completeAfter(f.Want))
}

func (m *Model) onCompleteDue(msg completeDueMsg) tea.Cmd {
	f := m.strForm
	if f == nil || f.Want != msg.id || m.session == nil || m.mode != modeArgs {
		return nil // typing went on, or the form is gone
	}
	arg, value, given := f.Completing()
	return m.cmd(completeCmd(m.ctx, msg.id, m.session, f.Ref(), arg, value, given))
}

func (m *Model) onCompleted(msg completedMsg) {
	if f := m.strForm; f != nil && f.Want == msg.id {
		f.SetSuggestions(msg.completion, msg.err)
	}
}

func (m *Model) onStringFormKey(msg tea.KeyPressMsg) tea.Cmd {
	f := m.strForm
	switch {
	case key.Matches(msg, m.keys.Run):
		ok, cmd := f.Check()
		if !ok {
			return cmd
		}
		if f.Template != nil {
			return m.readTemplate(f)
		}
		return m.getPrompt(f)
	case key.Matches(msg, m.keys.Back):
		if f.Unhighlight() {
			return nil // first esc leaves the suggestions
		}
		m.mode, m.strForm = modeBrowse, nil
		return nil
	}
	changed, cmd := f.Update(msg)
	if changed {
		return tea.Batch(cmd, m.askCompletion())
	}
	return cmd
}

// stringFormHeaderLines is the height of stringFormHeader.
const stringFormHeaderLines = 3

// stringFormHeader says what the form fills and what ctrl+r does.
func (m *Model) stringFormHeader() string {
	f := m.strForm
	w := &layout.Lines{Width: max(m.width, 1)}
	run := m.keys.Run.Help().Key
	if f.Template != nil {
		w.Add(m.st.Title.Render(termtext.Line(f.Template.DisplayName())) + "  " + m.st.Name.Render(termtext.Line(f.Template.URITemplate)))
		w.Add(m.st.Muted.Render(run + " reads the resource at the expanded address"))
	} else {
		p := f.Prompt
		w.Add(m.st.Title.Render(termtext.Line(p.DisplayName())) + "  " + m.st.Name.Render(termtext.Line(p.Name)))
		w.Add(m.st.Muted.Render(run + " gets the prompt's messages; * marks what it needs"))
	}
	w.Add(m.st.Muted.Render(strings.Repeat("─", max(m.width, 1))))
	return strings.Join(w.Out, "\n")
}
