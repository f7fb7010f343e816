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

func (s *serverState) openStringForm(f *form.StringForm, values map[string]string) tea.Cmd {
	f.SetValues(values)
	s.strForm = f
	s.mode = modeArgs
	s.layout()
	return tea.Batch(f.Focus(), s.askCompletion())
}

// askCompletion schedules a completion request for the focused field.
func (s *serverState) askCompletion() tea.Cmd {
	f := s.strForm
	if f == nil || !f.Completes() || f.Len() == 0 {
		return nil
	}
	f.Want = s.nextID()
	return s.cmd(completeAfter(f.Want))
}

func (s *serverState) onCompleteDue(msg completeDueMsg) tea.Cmd {
	f := s.strForm
	if f == nil || f.Want != msg.id || s.session == nil || s.mode != modeArgs {
		return nil // typing went on, or the form is gone
	}
	arg, value, given := f.Completing()
	return s.cmd(completeCmd(s.ctx, msg.id, s.session, f.Ref(), arg, value, given))
}

func (s *serverState) onCompleted(msg completedMsg) {
	if f := s.strForm; f != nil && f.Want == msg.id {
		f.SetSuggestions(msg.completion, msg.err)
	}
}

func (s *serverState) onStringFormKey(msg tea.KeyPressMsg) tea.Cmd {
	f := s.strForm
	switch {
	case key.Matches(msg, s.keys.Run):
		ok, cmd := f.Check()
		if !ok {
			return cmd
		}
		if f.Template != nil {
			return s.readTemplate(f)
		}
		return s.getPrompt(f)
	case key.Matches(msg, s.keys.Back):
		if f.Unhighlight() {
			return nil // first esc leaves the suggestions
		}
		s.mode, s.strForm = modeBrowse, nil
		return nil
	}
	changed, cmd := f.Update(msg)
	if changed {
		return tea.Batch(cmd, s.askCompletion())
	}
	return cmd
}

// stringFormHeaderLines is the height of stringFormHeader.
const stringFormHeaderLines = 3

// stringFormHeader says what the form fills and what ctrl+r does.
func (s *serverState) stringFormHeader() string {
	f := s.strForm
	w := &layout.Lines{Width: max(s.width, 1)}
	run := s.keys.Run.Help().Key
	if f.Template != nil {
		w.Add(s.st.Title.Render(termtext.Line(f.Template.DisplayName())) + "  " + s.st.Name.Render(termtext.Line(f.Template.URITemplate)))
		w.Add(s.st.Muted.Render(run + " reads the resource at the expanded address"))
	} else {
		p := f.Prompt
		w.Add(s.st.Title.Render(termtext.Line(p.DisplayName())) + "  " + s.st.Name.Render(termtext.Line(p.Name)))
		w.Add(s.st.Muted.Render(run + " gets the prompt's messages; * marks what it needs"))
	}
	w.Add(s.st.Muted.Render(strings.Repeat("─", max(s.width, 1))))
	return strings.Join(w.Out, "\n")
}
