package ui

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/listing"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// promptsState is the prompts view: the server's prompts, listed again when
// the server says they changed.
type promptsState struct {
	listState
	listing *client.PromptListing
}

func (s *serverState) listPrompts() tea.Cmd {
	if s.session == nil || !s.offers(viewPrompts) {
		return nil
	}
	s.prompts.req = s.nextID()
	return s.cmd(listPromptsCmd(s.ctx, s.prompts.req, s.session))
}

func (s *serverState) onPromptsListed(msg promptsListedMsg) tea.Cmd {
	p := &s.prompts
	if msg.id != p.req || !s.took(&p.listState, "prompts", msg.listing != nil, msg.err, p.listing != nil) {
		return nil
	}
	p.listing = msg.listing
	s.warnAll(msg.listing.Warnings)
	p.list.Set(listRows(listing.Prompts(msg.listing), p.stopped))
	return nil
}

func (s *serverState) selectedPrompt() *client.Prompt {
	it, ok := s.prompts.list.Selected()
	if l := s.prompts.listing; ok && l != nil && it.Index < len(l.Prompts) {
		return l.Prompts[it.Index]
	}
	return nil
}

func (s *serverState) onPromptsKey(msg tea.KeyPressMsg) tea.Cmd {
	if moveList(&s.prompts.list, s.keys, msg, s.bodyHeight()-3) {
		return nil
	}
	if key.Matches(msg, s.keys.Call) {
		if p := s.selectedPrompt(); p != nil {
			return s.openPrompt(p, nil)
		}
	}
	return nil
}

// openPrompt opens the form for a prompt's arguments.
func (s *serverState) openPrompt(p *client.Prompt, values map[string]string) tea.Cmd {
	specs := make([]form.StringSpec, len(p.Arguments))
	for i, a := range p.Arguments {
		desc := a.Description
		if a.Title != "" && a.Title != a.Name {
			desc = strings.TrimSpace(a.Title + ": " + desc)
		}
		specs[i] = form.StringSpec{Name: a.Name, Title: a.Title, Desc: desc, Required: a.Required}
	}
	f := form.NewStringForm(specs, client.CompletionRef{Prompt: p.Name}, s.server.Capabilities.Completions, s.st, s.keys)
	f.Prompt = p
	return s.openStringForm(f, values)
}

// getPrompt sends prompts/get with the form's values.
func (s *serverState) getPrompt(f *form.StringForm) tea.Cmd {
	id := s.nextID()
	s.promptOut = newPromptView(f, id, s.st, s.keys)
	s.mode = modePrompt
	s.layout()
	return tea.Batch(s.cmd(getPromptCmd(s.ctx, id, s.session, f.Prompt, f.Values())), s.spinner.Tick)
}

func (s *serverState) onPromptGot(msg promptGotMsg) tea.Cmd {
	v := s.promptOut
	if v == nil || v.id != msg.id {
		return nil
	}
	var ae *client.ArgError
	if errors.As(msg.err, &ae) && s.strForm != nil {
		// The client refused the arguments: nothing was sent. Back to the form.
		s.mode, s.promptOut = modeArgs, nil
		s.strForm.SetErr(termtext.Line(msg.err.Error()))
		return nil
	}
	v.SetResult(msg.result, msg.err)
	return nil
}

func (s *serverState) onPromptViewKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.Close):
		s.mode, s.promptOut, s.strForm = modeBrowse, nil, nil
		return nil
	case key.Matches(msg, s.keys.Edit):
		f := s.promptOut.form
		s.promptOut = nil
		return s.openPrompt(f.Prompt, f.Values())
	}
	return s.promptOut.Update(msg)
}

func (s *serverState) renderPrompts(h int) string {
	p := &s.prompts
	l := p.listing
	return s.renderListing(h, viewPrompts, "prompts", &p.listState, l != nil, l != nil && len(l.Prompts) == 0, func() []string {
		if pr := s.selectedPrompt(); pr != nil {
			return promptDetail(pr, s.detailWidth(), s.st)
		}
		return nil
	})
}

func promptDetail(p *client.Prompt, width int, st *style.Styles) []string {
	w := &layout.Lines{Width: max(width, 1)}
	w.Add(st.Title.Render(termtext.Line(p.DisplayName())) + "  " + st.Name.Render(termtext.Line(p.Name)))
	if d := termtext.Sanitize(p.Description); d != "" {
		w.Blank()
		w.Wrap(d, st.Row)
	}
	w.Section(st, "Arguments")
	if len(p.Arguments) == 0 {
		w.Add(st.Muted.Render("none"))
	}
	for _, a := range p.Arguments {
		w.Add(listing.ArgName(a.Name, a.Required) + "  " + st.Muted.Render(termtext.Line(a.Title)))
		if d := termtext.Line(a.Description); d != "" {
			w.WrapIndented(d, 2, st.Muted)
		}
	}
	w.Blank()
	w.Add(st.Muted.Render("enter fills them in, then gets the messages"))
	return w.Out
}
