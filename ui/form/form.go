// Package form is the interactive view's form engine: the editor of a JSON
// object described by a schema (a tool's arguments, what a server asks for),
// the form of string values (a template's variables, a prompt's arguments,
// with the server's completions), and the reading of a schema's top-level
// fields that the detail pane shows too. The forms send nothing themselves:
// the root model routes keys to them and acts on what they hold.
package form

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// ArgForm is the editor of one JSON object described by a schema: one input
// per top-level property, or a JSON editor for the whole object. A tool's
// arguments are its first use (NewArgForm); NewSchemaForm builds one from a
// schema alone, for values a server asks for. It never sends anything
// itself: the model asks Args when the user presses Run.
type ArgForm struct {
	tool     *client.Tool // nil for a form built from a schema alone
	name     string       // names the object's owner in messages: the tool's name
	validate func(map[string]any) error
	examples []map[string]any
	prefill  bool // defaults are filled in, not only shown
	titles   bool // fields are labelled by their titles
	words    formWords

	st   *style.Styles
	keys *keymap.KeyMap

	fields []*formField
	focus  int // index into fields
	offset int // first visible line of the field list

	jsonMode bool
	editor   textarea.Model

	picker bool // the example picker is open
	pick   int  // its highlighted example

	schemaErr    string // the schema cannot be read field by field
	schemaNotice string // the schema can be checked only in part, or not at all
	notice       string // a passing note, e.g. why the form shows JSON
	topErr       string // an error that belongs to no field
	err          error  // why the last Args failed

	width, height int
}

// Tool is the tool whose arguments are being edited, or nil for a form
// built from a schema alone.
func (f *ArgForm) Tool() *client.Tool { return f.tool }

// Err is why the last Args call failed, or nil.
func (f *ArgForm) Err() error { return f.err }

// SetSize sets the area the form draws in.
func (f *ArgForm) SetSize(width, height int) {
	f.width, f.height = width, height
	f.relayout()
}

// NothingToFill reports whether the form has nothing for the user to fill
// in: no fields, no JSON editor, and no schema error to show.
func (f *ArgForm) NothingToFill() bool {
	return len(f.fields) == 0 && !f.jsonMode && f.schemaErr == ""
}

// Editing reports whether keys are text being typed (a text input or the JSON
// editor has focus) or belong to the example picker, so the model must not
// read q, L, S or ? as commands.
func (f *ArgForm) Editing() bool {
	switch {
	case f.picker, f.jsonMode:
		return true
	case len(f.fields) == 0:
		return false
	}
	return !f.fields[f.focus].isChoice()
}

// Picking reports whether the example picker is open; it takes Esc to close.
func (f *ArgForm) Picking() bool { return f.picker }

// ShortHelp is the form's keys that work right now. The model adds Run and Back.
func (f *ArgForm) ShortHelp() []key.Binding {
	k := f.keys
	if f.picker {
		return []key.Binding{k.PickExample, k.Up, k.Down}
	}
	var b []key.Binding
	if !f.jsonMode && len(f.fields) > 0 {
		b = append(b, k.NextField, k.PrevField)
		if ff := f.fields[f.focus]; ff.isChoice() {
			b = append(b, k.Cycle)
		} else if ff.multiLine() {
			b = append(b, k.Newline)
		}
	}
	b = append(b, k.ToggleJSON)
	if len(f.examples) > 0 {
		b = append(b, k.Examples, k.ExampleN)
	}
	return b
}

// Update handles keys, pastes and the inner bubbles' messages while the form
// has focus. Run and Back belong to the model and are ignored here.
func (f *ArgForm) Update(msg tea.Msg) tea.Cmd {
	defer f.relayout()
	km, isKey := msg.(tea.KeyPressMsg)
	if !isKey {
		return f.forward(msg)
	}
	if f.picker {
		f.pickerKey(km)
		return nil
	}
	k := f.keys
	switch {
	case key.Matches(km, k.Run), key.Matches(km, k.Back):
		return nil
	case key.Matches(km, k.ToggleJSON):
		return f.toggleJSON()
	case key.Matches(km, k.Examples):
		f.notice = ""
		if len(f.examples) == 0 {
			f.notice = f.words.noExamples
			return nil
		}
		f.picker, f.pick = true, 0
		return nil
	case key.Matches(km, k.ExampleN):
		n := int(km.Code - '0')
		if !f.FillExample(n) {
			f.notice = fmt.Sprintf(f.words.noExample, n)
		}
		return f.Focus()
	}
	if f.jsonMode {
		return f.forward(msg)
	}
	if len(f.fields) == 0 {
		return nil
	}
	ff := f.fields[f.focus]
	switch {
	case key.Matches(km, k.Newline) && ff.multiLine():
		ff.newline(f.st)
		ff.err = ""
		return nil
	case key.Matches(km, k.NextField), km.Code == tea.KeyEnter && km.Mod == 0:
		return f.move(1)
	case key.Matches(km, k.PrevField):
		return f.move(-1)
	case ff.isChoice() && key.Matches(km, k.Cycle):
		switch {
		case km.Code == tea.KeyLeft:
			ff.cycle(-1)
		case ff.spec.Kind == kindMulti && km.Code == tea.KeyRight:
			ff.cycle(1)
		case ff.spec.Kind == kindMulti:
			ff.toggle() // space picks; the arrows move
		default:
			ff.cycle(1)
		}
		return nil
	}
	return f.forward(msg)
}

// forward gives a message to whatever holds the cursor.
func (f *ArgForm) forward(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case f.jsonMode:
		f.editor, cmd = f.editor.Update(msg)
	case len(f.fields) > 0 && !f.fields[f.focus].isChoice():
		ff := f.fields[f.focus]
		before := ff.text()
		if p, ok := msg.(tea.PasteMsg); ok && ff.area == nil && ff.multiLine() && strings.Contains(p.Content, "\n") {
			// Text of several lines keeps its lines.
			at := ff.input.Position()
			ff.toArea(f.st, ff.input.Value())
			ff.area.SetCursorColumn(at)
		}
		if ff.area != nil {
			*ff.area, cmd = ff.area.Update(msg)
			ff.fitArea()
		} else {
			ff.input, cmd = ff.input.Update(msg)
		}
		if ff.text() != before {
			ff.err = ""
		}
	}
	return cmd
}

// move focuses the field delta away, wrapping.
func (f *ArgForm) move(delta int) tea.Cmd {
	n := len(f.fields)
	return f.FocusField(((f.focus+delta)%n + n) % n)
}

// FocusField focuses field i, in the order the form shows them.
func (f *ArgForm) FocusField(i int) tea.Cmd {
	if i < 0 || i >= len(f.fields) {
		return nil
	}
	f.fields[f.focus].blur()
	f.focus = i
	return f.fields[i].focus()
}

// Focus (re)focuses whatever should hold the cursor in the current mode.
func (f *ArgForm) Focus() tea.Cmd {
	if f.jsonMode {
		return f.editor.Focus()
	}
	return f.FocusField(f.focus)
}

// pickerKey handles a key while the example picker is open: digits pick at
// once, up/down and enter pick the highlighted one, Esc closes.
func (f *ArgForm) pickerKey(km tea.KeyPressMsg) {
	k := f.keys
	n := len(f.examples)
	switch {
	case key.Matches(km, k.Back):
		f.picker = false
	case key.Matches(km, k.Up), key.Matches(km, k.PrevField):
		f.pick = (f.pick - 1 + n) % n
	case key.Matches(km, k.Down), key.Matches(km, k.NextField):
		f.pick = (f.pick + 1) % n
	case key.Matches(km, k.PickExample):
		i := f.pick + 1
		if km.Code >= '1' && km.Code <= '9' {
			i = int(km.Code - '0')
		}
		if i <= n {
			f.FillExample(i)
			f.Focus()
		}
	}
}

// FillExample fills the form with example n (1-based): the fields the
// example has are set and the others cleared. An example that breaks the
// schema still fills; Args then names the problem.
func (f *ArgForm) FillExample(n int) bool {
	if n < 1 || n > len(f.examples) {
		return false
	}
	f.SetArgs(f.examples[n-1])
	return true
}
