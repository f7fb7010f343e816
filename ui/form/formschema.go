package form

import (
	"slices"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// formWords are the form's words for what it edits.
type formWords struct {
	schema     string // "input schema"
	empty      string // shown when there is nothing to fill in
	noExamples string
	noExample  string // with the example's number
}

// Option adjusts a form built by NewSchemaForm.
type Option func(*ArgForm)

// withExamples offers values to fill the form with (alt+1–9, ctrl+e).
func withExamples(ex []map[string]any) Option {
	return func(f *ArgForm) { f.examples = ex }
}

// WithDefaultsFilled puts the schema's defaults into the fields, so that what
// is sent is what the user sees (an elicitation's answer), rather than
// showing them as placeholders the server applies itself (a tool's arguments).
func WithDefaultsFilled() Option { return func(f *ArgForm) { f.prefill = true } }

// WithTitleLabels labels fields by their schema titles where they have one:
// for questions put to a person rather than arguments named on a command line.
func WithTitleLabels() Option { return func(f *ArgForm) { f.titles = true } }

// NewArgForm builds the editor for tool's arguments.
func NewArgForm(tool *client.Tool, st *style.Styles, keys *keymap.KeyMap) *ArgForm {
	return NewSchemaForm(tool.Name, tool.Input(), tool.Validate, st, keys, withExamples(tool.Examples), func(f *ArgForm) {
		f.tool = tool
		f.words = formWords{schema: "input schema", empty: "this tool takes no arguments", noExamples: "this tool has no input examples", noExample: "this tool has no input example %d"}
	})
}

// NewSchemaForm builds an editor for a value described by schema (nil: any
// object). name is whose value it is, for messages; validate checks the whole
// value before Args returns it (nil: schema.Validate). It opens on the first
// field, required ones first, or in the JSON editor when the schema is too
// rich for a form.
func NewSchemaForm(name string, schema *client.Schema, validate func(map[string]any) error, st *style.Styles, keys *keymap.KeyMap, opts ...Option) *ArgForm {
	if schema == nil {
		schema = client.ReadSchemaText(nil)
	}
	f := &ArgForm{name: name, validate: validate, st: st, keys: keys, editor: newJSONEditor(st),
		words: formWords{schema: "schema", empty: "nothing to fill in", noExamples: "there are no examples", noExample: "there is no example %d"}}
	for _, o := range opts {
		o(f)
	}
	if f.validate == nil {
		f.validate = schema.Validate
	}
	specs := specsOf(schema)
	err := schema.Err()
	if err != nil {
		// The reader says "schema …"; say which ("input schema …").
		f.schemaErr = strings.Replace(err.Error(), "schema", f.words.schema, 1)
	}
	// Required fields first, so focus lands on what must be filled; otherwise the
	// schema's order (servers often sort properties alphabetically).
	slices.SortStableFunc(specs, func(a, b FieldSpec) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	allJSON := len(specs) > 0
	for _, s := range specs {
		f.fields = append(f.fields, newFormField(s, st, f.titles))
		allJSON = allJSON && s.Kind == kindJSON
	}
	f.schemaNotice = schema.Notice()
	switch {
	case err != nil || allJSON || schema.Whole != "":
		f.jsonMode = true
		var fill map[string]any
		if f.prefill {
			fill = schema.Defaults()
		}
		f.editor.SetValue(prettyArgs(fill, f.order()))
		f.editor.Focus()
	case len(f.fields) > 0:
		if f.prefill {
			f.fillDefaults()
		}
		f.fields[0].focus()
	}
	return f
}

// fillDefaults puts each field's default in it, where the field can show it.
func (f *ArgForm) fillDefaults() {
	for _, ff := range f.fields {
		if ff.spec.HasDefault {
			ff.set(ff.spec.Default)
		}
	}
}
