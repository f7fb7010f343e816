package ui

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// promptsState is the prompts view: the server's prompts, listed again when
// the server says they changed.
type promptsState struct {
	listing *client.PromptListing
	stopped bool // the listing stopped at mcpsh's budget: more were not listed
	err     string
	req     int
	list    itemList
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
	if msg.id != p.req {
		return nil
	}
	if msg.err != nil && !s.partial(msg.err, msg.listing != nil) {
		p.err = termtext.Line(msg.err.Error())
		if p.listing != nil {
			s.status = "listing the prompts again failed: " + p.err
		}
		return nil
	}
	p.err, p.listing, p.stopped = "", msg.listing, msg.err != nil
	s.warnAll(msg.listing.Warnings)
	rows := []listItem{{heading: fmt.Sprintf("Prompts (%d%s)", len(msg.listing.Prompts), stoppedMark(p.stopped))}}
	for i, pr := range msg.listing.Prompts {
		rows = append(rows, listItem{key: pr.Name, title: pr.DisplayName(), name: pr.Name, desc: pr.Description, kind: itemPrompt, index: i})
	}
	p.list.Set(rows)
	return nil
}

func (s *serverState) selectedPrompt() *client.Prompt {
	it, ok := s.prompts.list.Selected()
	if l := s.prompts.listing; ok && l != nil && it.index < len(l.Prompts) {
		return l.Prompts[it.index]
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
	switch {
	case !s.offers(viewPrompts):
		return strings.Join(s.notOffered("prompts", "prompts"), "\n")
	case p.listing == nil && p.err != "":
		return strings.Join(s.problem("listing the prompts failed", p.err), "\n")
	case p.listing == nil:
		return "\n  " + s.st.Muted.Render("listing the prompts…")
	case len(p.listing.Prompts) == 0:
		return s.noneCame(p.stopped, "prompts")
	}
	left := append(s.filterLine(s.listWidth()), strings.Split(p.list.View(s.st, s.listWidth(), s.listHeight(h)), "\n")...)
	var detail []string
	if pr := s.selectedPrompt(); pr != nil {
		detail = promptDetail(pr, s.detailWidth(), s.st)
	}
	return s.renderSplit(left, detail, h)
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
		name := termtext.Line(a.Name)
		if a.Required {
			name += "*"
		}
		w.Add(name + "  " + st.Muted.Render(termtext.Line(a.Title)))
		if d := termtext.Line(a.Description); d != "" {
			w.WrapIndented(d, 2, st.Muted)
		}
	}
	w.Blank()
	w.Add(st.Muted.Render("enter fills them in, then gets the messages"))
	return w.Out
}
