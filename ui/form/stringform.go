package form

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// StringForm is the form for a resource template's variables or a prompt's
// arguments: every value a string, the required ones marked, and the server's
// completions for the field being typed in, offered as suggestions to pick.
// It sends nothing itself: the model asks for completions (debounced, with
// request IDs) and reads or gets on Run.
type StringForm struct {
	st   *style.Styles
	keys *keymap.KeyMap

	// What it fills: one of the two.
	Template *client.ResourceTemplate
	Prompt   *client.Prompt

	fields []*stringField
	focus  int
	err    string // a problem that belongs to no field

	// Completion: the server's suggestions for the focused field.
	ref      client.CompletionRef
	complete bool // the server offers completion
	// Want is the completion request the model scheduled last; answers to
	// others are dropped.
	Want    int
	sugg    []string
	suggFor int // the field sugg is for
	sel     int // the highlighted suggestion; -1 for none
	more    int // values the server has beyond sugg (-1: some, count unknown)
	suggErr string

	offset        int // first line on screen
	width, height int
}

// StringSpec is one value the form asks for.
type StringSpec struct {
	Name, Title, Desc string
	Required          bool
}

type stringField struct {
	spec StringSpec
	in   textinput.Model
	err  string
}

func NewStringForm(specs []StringSpec, ref client.CompletionRef, complete bool, st *style.Styles, keys *keymap.KeyMap) *StringForm {
	f := &StringForm{st: st, keys: keys, ref: ref, complete: complete, sel: -1, suggFor: -1}
	for _, s := range specs {
		in := textinput.New()
		in.Prompt = ""
		in.SetStyles(st.TextInput())
		if !s.Required {
			in.Placeholder = "optional"
		}
		f.fields = append(f.fields, &stringField{spec: s, in: in})
	}
	return f
}

// SetValues fills the fields (editing again).
func (f *StringForm) SetValues(values map[string]string) {
	for _, ff := range f.fields {
		if v, ok := values[ff.spec.Name]; ok {
			ff.in.SetValue(v)
			ff.in.CursorEnd()
		}
	}
}

// Values are the fields that have a value; empty ones are left out.
func (f *StringForm) Values() map[string]string {
	out := map[string]string{}
	for _, ff := range f.fields {
		if v := ff.in.Value(); v != "" {
			out[ff.spec.Name] = v
		}
	}
	return out
}

// Check marks the required fields left empty and focuses the first; it
// reports whether there were none.
func (f *StringForm) Check() (bool, tea.Cmd) {
	f.err = ""
	first := -1
	for i, ff := range f.fields {
		ff.err = ""
		if ff.spec.Required && ff.in.Value() == "" {
			ff.err = "required"
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return true, nil
	}
	return false, f.focusField(first)
}

// Focus puts the cursor in the focused field.
func (f *StringForm) Focus() tea.Cmd {
	if len(f.fields) == 0 {
		return nil
	}
	return f.fields[f.focus].in.Focus()
}

func (f *StringForm) focusField(i int) tea.Cmd {
	if len(f.fields) == 0 {
		return nil
	}
	f.fields[f.focus].in.Blur()
	f.focus = (i%len(f.fields) + len(f.fields)) % len(f.fields)
	f.clearSuggestions()
	return f.fields[f.focus].in.Focus()
}

// Len is the number of values the form asks for.
func (f *StringForm) Len() int { return len(f.fields) }

// Completes reports whether the server offers completion for the form.
func (f *StringForm) Completes() bool { return f.complete }

// Ref is what the form's completions are asked for: its prompt or template.
func (f *StringForm) Ref() client.CompletionRef { return f.ref }

// SetErr shows a problem that belongs to no field.
func (f *StringForm) SetErr(msg string) { f.err = msg }

// Update handles a key. changed says the focused field's value, or which
// field has focus, changed: the model then asks for completions again.
func (f *StringForm) Update(msg tea.KeyPressMsg) (changed bool, cmd tea.Cmd) {
	if len(f.fields) == 0 {
		return false, nil
	}
	k := f.keys
	shown := min(len(f.sugg), suggestionsShown)
	switch {
	case key.Matches(msg, k.NextArg):
		return true, f.focusField(f.focus + 1)
	case key.Matches(msg, k.PrevArg):
		return true, f.focusField(f.focus - 1)
	case key.Matches(msg, k.SuggestDown) && shown > 0:
		f.sel = min(f.sel+1, shown-1)
		return false, nil
	case key.Matches(msg, k.SuggestUp) && shown > 0:
		f.sel = max(f.sel-1, -1)
		return false, nil
	case key.Matches(msg, k.PickSuggestion):
		if f.sel >= 0 && f.sel < len(f.sugg) {
			ff := f.fields[f.focus]
			v := f.sugg[f.sel]
			if !insertable(v) {
				// Put in the field, it would be drawn otherwise than
				// measured, or act on the terminal; as it is listed, it is
				// not what the server offered. The person types it.
				ff.err = "cannot go in the field as the server sent it: type it instead"
				return false, nil
			}
			ff.in.SetValue(v)
			ff.in.CursorEnd()
			ff.err = ""
			f.clearSuggestions()
			return false, nil
		}
		return true, f.focusField(f.focus + 1)
	}
	ff := f.fields[f.focus]
	before := ff.in.Value()
	ff.in, cmd = ff.in.Update(msg)
	if v := ff.in.Value(); v != before {
		ff.err, f.err = "", ""
		f.narrow(v)
		return true, cmd
	}
	return false, cmd
}

// Forward gives other messages (cursor blinks) to the focused input.
func (f *StringForm) Forward(msg tea.Msg) tea.Cmd {
	if len(f.fields) == 0 {
		return nil
	}
	var cmd tea.Cmd
	ff := f.fields[f.focus]
	ff.in, cmd = ff.in.Update(msg)
	return cmd
}

// Completing is what to ask the server to complete: the focused field's
// name and value, and the other fields' values as context.
func (f *StringForm) Completing() (arg, value string, given map[string]string) {
	ff := f.fields[f.focus]
	given = f.Values()
	delete(given, ff.spec.Name)
	return ff.spec.Name, ff.in.Value(), given
}

func (f *StringForm) SetSize(width, height int) {
	f.width, f.height = width, height
	lw := f.labelWidth()
	for _, ff := range f.fields {
		ff.in.SetWidth(max(width-lw-5, 4)) // the cursor takes a cell past the width
	}
}

func (f *StringForm) labelWidth() int {
	w := 4
	for _, ff := range f.fields {
		w = max(w, ansi.StringWidth(termtext.Line(ff.spec.Name))+1)
	}
	return min(w, max(f.width/3, 4))
}

// blocks draws every field, and says where the focused one starts and ends.
func (f *StringForm) blocks() (out []string, start, end int) {
	st, lw := f.st, f.labelWidth()
	pad := strings.Repeat(" ", lw+4)
	for i, ff := range f.fields {
		if i == f.focus {
			start = len(out)
		}
		label := termtext.Line(ff.spec.Name)
		if ff.spec.Required {
			label += "*"
		}
		// As in the argument form: the focused field is marked, not only
		// coloured, so it shows without colour too.
		mark, ls := "  ", st.Label
		if i == f.focus {
			mark, ls = st.Focused.Render("▸ "), st.Focused
		}
		out = append(out, mark+ls.Render(termtext.Pad(termtext.Truncate(label, lw), lw))+"  "+ff.in.View())
		if ff.err != "" {
			out = append(out, pad+st.Error.Render("✗ "+ff.err))
		}
		if d := ff.spec.Desc; d != "" {
			out = append(out, pad+st.Muted.Render(termtext.Truncate(termtext.Line(d), max(f.width-len(pad), 1))))
		}
		if i == f.focus {
			out = append(out, f.suggestionLines(pad)...)
			end = len(out)
		}
	}
	return out, start, end
}

// Layout scrolls the form so the focused field, its suggestions included,
// is in view. Update calls it (Model.prepareFrame); View draws from there.
func (f *StringForm) Layout() {
	if f.width > 0 && f.height > 0 {
		_, _, f.offset = f.frame()
	}
}

// frame is the form's lines above the fields, every field's lines, and the
// first of those on screen.
func (f *StringForm) frame() (head, body []string, off int) {
	if f.err != "" {
		head = append(head, f.st.Error.Render(termtext.Truncate("✗ "+f.err, f.width)))
	}
	if len(f.fields) == 0 {
		head = append(head, f.st.Muted.Render("nothing to fill in"))
	}
	body, start, end := f.blocks()
	room := max(f.height-len(head)-1, 1)
	off = f.offset
	if end-start > room || start < off {
		off = start
	} else if end > off+room {
		off = end - room
	}
	return head, body, max(min(off, len(body)-room), 0)
}

// View draws the form in at most height lines, the focused field in view.
func (f *StringForm) View() string {
	if f.width <= 0 || f.height <= 0 {
		return ""
	}
	head, body, off := f.frame()
	room := max(f.height-len(head)-1, 1)
	body = body[off:min(len(body), off+room)]
	hint := "the server does not offer completion"
	if f.complete {
		hint = "the server suggests values as you type"
	}
	out := append(head, body...)
	out = append(out, f.st.Muted.Render(hint))
	lines := strings.Split(strings.Join(out, "\n"), "\n")
	lines = lines[:min(len(out), f.height)]
	for i, l := range lines {
		lines[i] = termtext.Truncate(l, f.width)
	}
	return strings.Join(lines, "\n")
}

func (f *StringForm) ShortHelp() []key.Binding {
	k := f.keys
	b := []key.Binding{k.NextArg, k.PrevArg}
	if len(f.sugg) > 0 && f.suggFor == f.focus {
		b = append(b, k.SuggestDown, k.SuggestUp, k.PickSuggestion)
	}
	return b
}
