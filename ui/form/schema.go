package form

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mcpsh/mcpsh/client"
)

// fieldKind is how the argument editor lets the user enter one property:
// the client's reading of the schema decides it, so the form types a value
// exactly as key=value does on the command line.
type fieldKind = client.Input

const (
	kindString  = client.InputText    // text; several scalar types are tried in order
	kindNumber  = client.InputNumber  // a number, typed in a text input
	kindInteger = client.InputInteger // an integer, typed in a text input
	kindBoolean = client.InputBool    // a choice of (unset) / true / false
	kindEnum    = client.InputChoice  // a choice of (unset) / each value
	kindMulti   = client.InputMulti   // several of the items' values
	kindArray   = client.InputList    // an array of scalars: "a, b, c" or a JSON array
	kindJSON    = client.InputJSON    // anything else, entered as JSON text
)

// FieldSpec is one top-level property as the argument editor and the detail
// pane show it. Name, Title, Description, Enum, Default and Constraints are
// the server's text: sanitize them (termtext) before display.
type FieldSpec struct {
	*client.Field
	Kind        fieldKind
	ItemTypes   []string // for arrays: the items' types
	Constraints string   // a short summary of other rules: "1–50", "≥ 1", "min length 1", "format email"
}

// ParseFields lists a schema's top-level properties in text order, from
// its text alone (no $ref followed: the detail pane calls it on every
// frame). It is total: a missing or null schema has no fields, and only a
// schema or "properties" that is not an object is an error.
func ParseFields(schema json.RawMessage) ([]FieldSpec, error) {
	s := client.ReadSchemaText(schema)
	return specsOf(s), s.Err()
}

func specsOf(s *client.Schema) []FieldSpec {
	out := make([]FieldSpec, 0, len(s.Fields))
	for _, f := range s.Fields {
		spec := FieldSpec{Field: f, Kind: f.Input, Constraints: constraints(f)}
		if f.Items != nil {
			spec.ItemTypes = f.Items.Types
		}
		out = append(out, spec)
	}
	return out
}

// schemaIsComplex reports a top-level schema that a form of one input per
// property cannot express: combinators, or extra properties with a schema.
func schemaIsComplex(schema json.RawMessage) bool { return client.ReadSchemaText(schema).Whole != "" }

// TypeLabel names the field's type for people: "string", "integer | null",
// "string enum", "array of string", "object (JSON)", "any (JSON)".
func (f FieldSpec) TypeLabel() string {
	switch f.Kind {
	case kindEnum:
		if nn := client.NonNull(f.Types); len(nn) > 0 {
			return strings.Join(nn, " | ") + " enum"
		}
		return "enum"
	case kindMulti:
		if it := client.NonNull(f.ItemTypes); len(it) > 0 {
			return "array of " + strings.Join(it, " | ") + " enum"
		}
		return "array of enum"
	case kindArray:
		if len(f.ItemTypes) > 0 {
			return "array of " + strings.Join(f.ItemTypes, " | ")
		}
		return "array"
	case kindJSON:
		switch {
		case len(f.Types) == 0:
			return "any (JSON)"
		case len(f.Types) == 1 && f.Types[0] == "array" && len(f.ItemTypes) > 0:
			return "array of " + strings.Join(f.ItemTypes, " | ") + " (JSON)"
		}
		return strings.Join(f.Types, " | ") + " (JSON)"
	}
	if len(f.Types) == 0 {
		return "string"
	}
	return strings.Join(f.Types, " | ")
}

// constraints summarises the rules a value must also follow.
func constraints(f *client.Field) string {
	var out []string
	lo, hi := f.Minimum, f.Maximum
	if lo != nil && hi != nil && !f.ExclusiveMinimum && !f.ExclusiveMaximum {
		out = append(out, numText(*lo)+"–"+numText(*hi))
	} else {
		if lo != nil {
			out = append(out, map[bool]string{false: "≥ ", true: "> "}[f.ExclusiveMinimum]+numText(*lo))
		}
		if hi != nil {
			out = append(out, map[bool]string{false: "≤ ", true: "< "}[f.ExclusiveMaximum]+numText(*hi))
		}
	}
	if f.MultipleOf != nil {
		out = append(out, "multiple of "+numText(*f.MultipleOf))
	}
	if f.MinLength != nil || f.MaxLength != nil {
		out = append(out, rangeText(f.MinLength, f.MaxLength, "length %s–%s", "min length %s", "max length %s"))
	}
	if f.MinItems != nil || f.MaxItems != nil {
		s := rangeText(f.MinItems, f.MaxItems, "%s–%s items", "at least %s", "at most %s")
		if f.MinItems == nil || f.MaxItems == nil {
			if n := f.MinItems; (n != nil && *n == 1) || (n == nil && *f.MaxItems == 1) {
				s += " item"
			} else {
				s += " items"
			}
		}
		out = append(out, s)
	}
	if f.UniqueItems {
		out = append(out, "unique items")
	}
	if f.Format != "" {
		out = append(out, "format "+f.Format)
	}
	if f.Pattern != "" {
		out = append(out, "pattern "+f.Pattern)
	}
	if f.Items != nil && len(f.Items.Enum) > 0 {
		vals := make([]string, len(f.Items.Enum))
		for i, v := range f.Items.Enum {
			vals[i] = valueText(v)
		}
		out = append(out, "items one of "+strings.Join(vals, ", "))
	}
	return strings.Join(out, ", ")
}

// numText writes a bound the way people write numbers: 50, 1.5, 1e+30.
func numText(v float64) string {
	if math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// rangeText words a range with one bound or both.
func rangeText(lo, hi *int, both, onlyLo, onlyHi string) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf(both, strconv.Itoa(*lo), strconv.Itoa(*hi))
	case lo != nil:
		return fmt.Sprintf(onlyLo, strconv.Itoa(*lo))
	}
	return fmt.Sprintf(onlyHi, strconv.Itoa(*hi))
}

// valueText shows a JSON value the way a user would type it: strings bare,
// everything else as compact JSON. It is the server's text: sanitize it.
func valueText(v any) string { return client.ValueText(v) }

// compactJSON is v as one line of JSON, without HTML escaping.
func compactJSON(v any) string { return client.CompactJSON(v) }
