package ui

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/ui/resultview"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// promptView shows what prompts/get returned: each message with its role,
// text as sent, and other content (embedded resources, images, audio)
// summarised. Drawn when the result arrives or the width changes.
type promptView struct {
	st   *style.Styles
	keys *keymap.KeyMap
	id   int              // the prompts/get request it waits for
	form *form.StringForm // the arguments, for editing again
	body scroll.Pane

	done   bool
	result *client.PromptResult
	err    error
}

func newPromptView(f *form.StringForm, id int, st *style.Styles, keys *keymap.KeyMap) *promptView {
	return &promptView{st: st, keys: keys, id: id, form: f}
}

func (v *promptView) SetResult(r *client.PromptResult, err error) {
	v.done, v.result, v.err = true, r, err
	v.render()
	v.body.ScrollTo(0)
}

func (v *promptView) SetSize(width, height int) {
	if v.body.SetSize(width, height) {
		v.render()
	}
}

func (v *promptView) render() {
	if w := v.body.Width(); w > 0 && v.done {
		v.body.SetLines(promptLines(v.form.Prompt, v.form.Values(), v.result, v.err, w, v.st))
	}
}

func (v *promptView) Update(msg tea.Msg) tea.Cmd {
	v.body.Scroll(msg, v.keys)
	return nil
}

func (v *promptView) View(spin string) string {
	if !v.done {
		return fmt.Sprintf("\n  %s getting %s…", spin, termtext.Line(v.form.Prompt.Name))
	}
	return v.body.View()
}

// promptLines draws the prompt's result.
func promptLines(p *client.Prompt, args map[string]string, r *client.PromptResult, err error, width int, st *style.Styles) []string {
	w := resultview.NewCapped(width, resultview.MaxLines, resultview.MaxBytes)
	head := st.Title.Render(termtext.Line(p.DisplayName())) + "  " + st.Name.Render(termtext.Line(p.Name))
	w.Styled(head)
	if len(args) > 0 {
		var kv []string
		for _, a := range p.Arguments {
			if v, ok := args[a.Name]; ok {
				kv = append(kv, a.Name+"="+v)
			}
		}
		w.Styled(st.Muted.Render(termtext.Truncate(termtext.Line(strings.Join(kv, " ")), width)))
	}
	if err != nil {
		w.Blank()
		w.Text(err.Error(), st.Error)
		return w.Lines()
	}
	if r.Description != "" {
		w.Blank()
		w.Text(r.Description, st.Muted)
	}
	n := len(r.Messages)
	w.Styled(st.Muted.Render(units.Plural(n, "message")))
	for _, m := range r.Messages {
		w.Blank()
		w.Styled(st.Label.Render(termtext.Truncate(termtext.Line(m.Role), width)))
		resultview.Block(w, m.Block, st.Row, st.Label)
	}
	w.Finish(st)
	return w.Lines()
}
