package client

import (
	"encoding/json"
	"fmt"
)

// Schema is an object schema (a tool's inputSchema, an elicitation's
// requestedSchema) read once for everything that types, fills or checks a
// value by it: key=value typing on the command line, the TUI's forms, and
// defaults. Reading it in one place is what keeps those from disagreeing.
//
// Every string in it (names, titles, descriptions, enum values) is the
// server's text: make it safe (termtext) before it reaches a screen.
type Schema struct {
	Title       string
	Description string
	// Fields are the top-level properties, in the order the schema's text
	// lists them (servers order them on purpose; a Go map would lose it).
	Fields []*Field
	// Whole names the rules about the object as a whole that one input per
	// field cannot express ("anyOf", "additionalProperties", …), or is "".
	// A form should then open on JSON; the rules are still checked.
	Whole string

	name     string
	err      error
	checked  *checkedSchema
	checkErr error
	notice   string
	// formats: string formats are checked too (checkFormats), for a schema
	// whose values mcpsh itself gives.
	formats bool
}

// Input is how a form lets people enter one field; it follows from the
// field's types, enum and items.
type Input int

const (
	InputText    Input = iota // text: a string, or several scalar types tried in order
	InputNumber               // a number, typed
	InputInteger              // an integer, typed
	InputBool                 // a choice of true / false
	InputChoice               // a choice of one of Enum
	InputMulti                // several of Items.Enum (an array of enum items)
	InputList                 // an array of scalars: "a, b, c" or a JSON array
	InputJSON                 // anything else, entered as JSON
)

// Field is one property of a Schema. A field whose schema says little (no
// type, an unfollowed $ref) has no Types and is entered as JSON.
type Field struct {
	Name        string
	Title       string
	Description string
	Required    bool
	// Types are the JSON types a value may have, each once, in the schema's
	// order: its "type", or else the union of its anyOf/oneOf branches (the
	// way pydantic writes Optional[int]). Nil when any type may do.
	Types []string
	Input Input
	// Enum lists the values allowed (enum, const, or anyOf/oneOf branches of
	// const, which is how titled enums are written); EnumTitles, when not
	// nil, has a title for each ("" for none), from those branches or the
	// legacy enumNames.
	Enum       []any
	EnumTitles []string
	Default    any
	HasDefault bool
	Format     string // "email", "uri", "date", "date-time", …
	Pattern    string
	// Minimum and Maximum are bounds; Exclusive* say a bound is not allowed
	// itself (exclusiveMinimum, in either draft's spelling).
	Minimum, Maximum                   *float64
	ExclusiveMinimum, ExclusiveMaximum bool
	MultipleOf                         *float64
	MinLength, MaxLength               *int
	MinItems, MaxItems                 *int
	UniqueItems                        bool
	// Items is the schema of an array's items, when it is one schema.
	Items *Field

	// free are the types a value may have without being one of Enum: the
	// types of anyOf branches that have no enum (Literal["auto"] | int).
	free       []string
	defaultRaw json.RawMessage
	set        fieldSet
}

// fieldSet records which keywords a schema set itself, so that merging a
// $ref's target or allOf branches lets the schema's own keywords win.
type fieldSet struct{ types, enum bool }

// ReadSchema reads a schema that belongs to no tool, such as an
// elicitation's requestedSchema. name and which name it in messages
// ("<name>: <which> schema: …"). A schema the guard refuses (recursive,
// too large) is still read field by field, without following $refs, and
// values are then not checked (CheckErr says why). The values such a schema
// describes are mcpsh's to give, so Validate also holds strings to the
// formats the MCP spec lets a server ask for (schemaformat.go).
func ReadSchema(name, which string, raw json.RawMessage) *Schema {
	c, notice, err := compile(raw, "the value")
	s := readSchema(raw, c)
	s.name, s.checked, s.formats = name, c, true
	if err != nil {
		s.checkErr = &SchemaError{Tool: safeText(name), Which: which, Reason: clipText(safeText(err.Error()), maxReasonRunes)}
		s.notice = fmt.Sprintf("%v; values cannot be checked against it", s.checkErr)
	} else if notice != "" {
		s.notice = fmt.Sprintf("%s: %s %s", safeText(name), which, safeText(notice))
	}
	return s
}

// Input reads the tool's input schema. ParseArgs, ParseValue and the TUI's
// argument form all read it this way. It reads the schema again on every
// call; a caller that needs it often keeps it.
func (t *Tool) Input() *Schema {
	t.compileSchemas()
	s := readSchema(t.InputSchema, t.schemas.input)
	s.name, s.checked, s.checkErr = t.Name, t.schemas.input, t.schemas.inputErr
	s.notice = t.SchemaNotice()
	return s
}

// Err says why the schema cannot be read field by field (it, or its
// properties, is not an object), or is nil. Values can then only be given
// as one JSON object.
func (s *Schema) Err() error { return s.err }

// CheckErr is a *SchemaError when values cannot be checked against the
// schema (it does not compile, or the guard refused it), else nil.
func (s *Schema) CheckErr() error { return s.checkErr }

// Notice explains, when not empty, why values are checked only in part or
// not at all. It is safe to show.
func (s *Schema) Notice() string { return s.notice }

// Field is the top-level property called name, or nil.
func (s *Schema) Field(name string) *Field {
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Defaults are the top-level defaults the schema declares, each a fresh
// copy: what "accept with the defaults" sends.
func (s *Schema) Defaults() map[string]any {
	out := map[string]any{}
	for _, f := range s.Fields {
		if !f.HasDefault {
			continue
		}
		var v any
		if json.Unmarshal(f.defaultRaw, &v) == nil {
			out[f.Name] = v
		}
	}
	return out
}

// Missing lists the required fields v lacks, in schema order.
func (s *Schema) Missing(v map[string]any) []string {
	var out []string
	for _, f := range s.Fields {
		if _, ok := v[f.Name]; f.Required && !ok {
			out = append(out, f.Name)
		}
	}
	return out
}

// Validate checks a whole value against the schema with jsonschema-go, as
// Tool.Validate does: an *ArgError for a violation, or for a value too
// costly to check. A schema that cannot be checked passes everything. A
// schema from ReadSchema also has its fields' string formats checked.
func (s *Schema) Validate(v map[string]any) error {
	if s.checked == nil {
		return nil
	}
	if v == nil {
		v = map[string]any{}
	}
	if err := s.checked.g.tooCostly(v); err != nil {
		return &ArgError{Tool: safeText(s.name), Rule: err.Error()}
	}
	if err := s.checked.r.Validate(v); err != nil {
		return schemaViolation(s.name, err)
	}
	if s.formats {
		return s.checkFormats(v)
	}
	return nil
}

// ReadSchemaText reads a schema's text alone, cheaply enough to do on every
// frame: it follows no $ref (that needs the guard's compiled graph; see
// Tool.Input and ReadSchema) and checks no value (Validate passes all).
func ReadSchemaText(raw json.RawMessage) *Schema { return readSchema(raw, nil) }
