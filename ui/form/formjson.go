package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/style"
)

// newJSONEditor is the textarea for arguments as one JSON object.
func newJSONEditor(st *style.Styles) textarea.Model {
	ed := textarea.New()
	ed.Prompt = ""
	ed.ShowLineNumbers = false
	ed.CharLimit = 0
	ed.MaxHeight = 0 // no limit on lines; the view scrolls
	ed.SetStyles(st.TextArea())
	ed.Placeholder = "{}"
	return ed
}

// Args builds the value and checks it (validate: the schema). On
// failure it puts the error beside the field at fault (or at the top, for the
// JSON editor and for the object as a whole), focuses that field, and
// returns false: nothing that breaks the schema gets out of the form.
func (f *ArgForm) Args() (map[string]any, bool) {
	f.clearErrors()
	defer f.relayout()
	var args map[string]any
	if f.jsonMode {
		a, err := parseEditorJSON(f.name, f.editor.Value())
		if err != nil {
			f.err, f.topErr = err, err.Error()
			return nil, false
		}
		args = a
	} else {
		a, ok := f.collect()
		if !ok {
			return nil, false
		}
		args = a
	}
	if err := f.validate(args); err != nil {
		f.placeError(err)
		return nil, false
	}
	return args, true
}

// collect reads every field without checking the schema, marking fields
// whose text cannot be typed (an integer that is not one, say).
func (f *ArgForm) collect() (map[string]any, bool) {
	args := map[string]any{}
	first := -1
	for i, ff := range f.fields {
		v, set, err := ff.value()
		switch {
		case err != nil:
			ff.err = ff.label + ": " + err.Error()
			if first < 0 {
				first = i
				f.err = fmt.Errorf("%s: argument %q: %v", termtext.Line(f.name), termtext.Line(ff.spec.Name), err)
			}
		case set:
			args[ff.spec.Name] = v
		}
	}
	if first >= 0 {
		f.FocusField(first)
		return nil, false
	}
	return args, true
}

// placeError shows a schema violation beside its field when the form shows
// one for it, else at the top.
func (f *ArgForm) placeError(err error) {
	f.err = err
	var ae *client.ArgError
	if !errors.As(err, &ae) {
		f.topErr = err.Error()
		return
	}
	msg := ae.Rule
	if ae.Arg != "" {
		msg = ae.Arg + ": " + msg
	}
	if i := f.fieldFor(ae.Arg); i >= 0 && !f.jsonMode {
		// Named as the field is labelled ("Your name: …" when labelled by title).
		ff := f.fields[i]
		ff.err = termtext.Line(ff.label) + strings.TrimPrefix(ae.Arg, termtext.Line(ff.spec.Name)) + ": " + ae.Rule
		f.FocusField(i)
		return
	}
	f.topErr = msg
}

// fieldFor finds the field an argument path ("filter.limit", "tags[]") is in.
// The path names arguments as the client's messages do, made safe for the
// terminal, so the field names are compared the same way.
func (f *ArgForm) fieldFor(arg string) int {
	best, bestLen := -1, -1
	for i, ff := range f.fields {
		n := termtext.Line(ff.spec.Name)
		if arg == n || (strings.HasPrefix(arg, n) && len(arg) > len(n) && (arg[len(n)] == '.' || arg[len(n)] == '[')) {
			if len(n) > bestLen {
				best, bestLen = i, len(n)
			}
		}
	}
	return best
}

func (f *ArgForm) clearErrors() {
	f.topErr, f.notice, f.err = "", "", nil
	for _, ff := range f.fields {
		ff.err = ""
	}
}

// SetArgs fills the editor from args: "edit and run again", and examples. In
// the form, fields args has are set and the others cleared; arguments the
// form cannot show exactly (a name the schema lacks, a value of another type)
// switch it to the JSON editor, so nothing is lost or changed.
func (f *ArgForm) SetArgs(args map[string]any) {
	f.clearErrors()
	f.picker = false
	defer f.relayout()
	if f.jsonMode {
		f.editor.SetValue(prettyArgs(args, f.order()))
		return
	}
	if err := f.fillFields(args); err != nil {
		f.showJSON(args)
		f.notice = "shown as JSON: " + err.Error()
	}
}

// fillFields clears the fields and sets the ones args names.
func (f *ArgForm) fillFields(args map[string]any) error {
	for _, ff := range f.fields {
		ff.clear()
	}
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		i := slices.IndexFunc(f.fields, func(ff *formField) bool { return ff.spec.Name == k })
		if i < 0 {
			return fmt.Errorf("%q is not in the %s", k, f.words.schema)
		}
		if !f.fields[i].set(args[k]) {
			return fmt.Errorf("the form cannot show the value of %q exactly", k)
		}
	}
	return nil
}

// toggleJSON switches between the form and the JSON editor. Leaving the
// editor needs valid JSON that the form can show; otherwise the editor stays,
// with the reason at the top.
func (f *ArgForm) toggleJSON() tea.Cmd {
	f.clearErrors()
	if !f.jsonMode {
		args, ok := f.collect()
		if !ok {
			return nil
		}
		f.showJSON(args)
		return f.editor.Focus()
	}
	if f.schemaErr != "" {
		f.topErr = "the form is not available: the " + f.schemaErr
		return nil
	}
	args, err := parseEditorJSON(f.name, f.editor.Value())
	if err != nil {
		f.topErr = err.Error()
		return nil
	}
	if err := f.fillFields(args); err != nil {
		f.topErr = "these arguments do not fit the form: " + err.Error()
		return nil
	}
	f.jsonMode = false
	f.editor.Blur()
	return f.Focus()
}

// showJSON puts args in the JSON editor and focuses it.
func (f *ArgForm) showJSON(args map[string]any) {
	if len(f.fields) > 0 {
		f.fields[f.focus].blur()
	}
	f.jsonMode = true
	f.editor.SetValue(prettyArgs(args, f.order()))
	f.editor.Focus()
}

func (f *ArgForm) order() []string {
	names := make([]string, len(f.fields))
	for i, ff := range f.fields {
		names[i] = ff.spec.Name
	}
	return names
}

// parseEditorJSON reads the editor's text as the arguments object; empty text
// is no arguments. Syntax errors say where they are.
func parseEditorJSON(tool, text string) (map[string]any, error) {
	if strings.TrimSpace(text) == "" {
		return map[string]any{}, nil
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(text, int(se.Offset))
			return nil, fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, err)
		}
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	return client.ParseJSONArgs(tool, []byte(text))
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(text string, off int) (int, int) {
	off = min(max(off, 0), len(text))
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	col := len([]rune(before[strings.LastIndexByte(before, '\n')+1:]))
	return line, max(col, 1)
}

// prettyArgs is args as indented JSON, keys in schema order and then the
// rest sorted. Runes a terminal would act on (C1 controls, bidirectional
// overrides) are written as \u escapes: the same JSON value, safe to show.
func prettyArgs(args map[string]any, order []string) string {
	if len(args) == 0 {
		return "{}"
	}
	var keys []string
	for _, k := range order {
		if _, ok := args[k]; ok && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	var rest []string
	for k := range args {
		if !slices.Contains(keys, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	keys = append(keys, rest...)
	var b strings.Builder
	b.WriteString("{\n")
	for i, k := range keys {
		b.WriteString("  " + compactJSON(k) + ": " + indentJSON(args[k]))
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}")
	return escapeUnsafe(b.String())
}

func indentJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// escapeUnsafe writes runes that termtext would strip as JSON \u escapes.
// encoding/json already escapes C0 controls; these can only occur inside
// strings, where an escape means the same.
func escapeUnsafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r), r == '\u200e', r == '\u200f', r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
