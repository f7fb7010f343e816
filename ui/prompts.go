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

func (m *Model) listPrompts() tea.Cmd {
	if m.session == nil || !m.offers(viewPrompts) {
		return nil
	}
	m.prompts.req = m.nextID()
	return m.cmd(listPromptsCmd(m.ctx, m.prompts.req, m.session))
}

func (m *Model) onPromptsListed(msg promptsListedMsg) tea.Cmd {
	p := &m.prompts
	if msg.id != p.req {
		return nil
	}
	if msg.err != nil && !m.partial(msg.err, msg.listing != nil) {
		p.err = termtext.Line(msg.err.Error())
		if p.listing != nil {
			m.status = "listing the prompts again failed: " + p.err
		}
		return nil
	}
	p.err, p.listing, p.stopped = "", msg.listing, msg.err != nil
	m.warnAll(msg.listing.Warnings)
	rows := []listItem{{heading: fmt.Sprintf("Prompts (%d%s)", len(msg.listing.Prompts), stoppedMark(p.stopped))}}
	for i, pr := range msg.listing.Prompts {
		rows = append(rows, listItem{key: pr.Name, title: pr.DisplayName(), name: pr.Name, kind: itemPrompt, index: i})
	}
	p.list.Set(rows)
	return nil
}

func (m *Model) selectedPrompt() *client.Prompt {
	it, ok := m.prompts.list.Selected()
	if l := m.prompts.listing; ok && l != nil && it.index < len(l.Prompts) {
		return l.Prompts[it.index]
	}
	return nil
}

func (m *Model) onPromptsKey(msg tea.KeyPressMsg) tea.Cmd {
	if moveList(&m.prompts.list, m.keys, msg, m.bodyHeight()-3) {
		return nil
	}
	if key.Matches(msg, m.keys.Call) {
		if p := m.selectedPrompt(); p != nil {
			return m.openPrompt(p, nil)
		}
	}
	return nil
}

// openPrompt opens the form for a prompt's arguments.
func (m *Model) openPrompt(p *client.Prompt, values map[string]string) tea.Cmd {
	specs := make([]form.StringSpec, len(p.Arguments))
	for i, a := range p.Arguments {
		desc := a.Description
		if a.Title != "" && a.Title != a.Name {
			desc = strings.TrimSpace(a.Title + ": " + desc)
		}
		specs[i] = form.StringSpec{Name: a.Name, Title: a.Title, Desc: desc, Required: a.Required}
	}
	f := form.NewStringForm(specs, client.CompletionRef{Prompt: p.Name}, m.server.Capabilities.Completions, m.st, m.keys)
	f.Prompt = p
	return m.openStringForm(f, values)
}

// getPrompt sends prompts/get with the form's values.
func (m *Model) getPrompt(f *form.StringForm) tea.Cmd {
	id := m.nextID()
	m.promptOut = newPromptView(f, id, m.st, m.keys)
	m.mode = modePrompt
	m.layout()
	return tea.Batch(m.cmd(getPromptCmd(m.ctx, id, m.session, f.Prompt, f.Values())), m.spinner.Tick)
}

func (m *Model) onPromptGot(msg promptGotMsg) tea.Cmd {
	v := m.promptOut
	if v == nil || v.id != msg.id {
		return nil
	}
	var ae *client.ArgError
	if errors.As(msg.err, &ae) && m.strForm != nil {
		// The client refused the arguments: nothing was sent. Back to the form.
		m.mode, m.promptOut = modeArgs, nil
		m.strForm.SetErr(termtext.Line(msg.err.Error()))
		return nil
	}
	v.SetResult(msg.result, msg.err)
	return nil
}

func (m *Model) onPromptViewKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Close):
		m.mode, m.promptOut, m.strForm = modeBrowse, nil, nil
		return nil
	case key.Matches(msg, m.keys.Edit):
		f := m.promptOut.form
		m.promptOut = nil
		return m.openPrompt(f.Prompt, f.Values())
	}
	return m.promptOut.Update(msg)
}

func (m *Model) renderPrompts(h int) string {
	p := &m.prompts
	switch {
	case !m.offers(viewPrompts):
		return strings.Join(m.notOffered("prompts", "prompts"), "\n")
	case p.listing == nil && p.err != "":
		return strings.Join(m.problem("listing the prompts failed", p.err), "\n")
	case p.listing == nil:
		return "\n  " + m.st.Muted.Render("listing the prompts…")
	case len(p.listing.Prompts) == 0:
		return m.noneCame(p.stopped, "prompts")
	}
	left := strings.Split(p.list.View(m.st, m.listWidth(), h), "\n")
	var detail []string
	if pr := m.selectedPrompt(); pr != nil {
		detail = promptDetail(pr, m.detailWidth(), m.st)
	}
	return m.renderSplit(left, detail, h)
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
