package client

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Parse types text the way key=value does on the command line, and the way
// a form's text inputs do: the value is tried as each of the field's types
// in turn, and the first that reads wins. With an enum, the first reading
// that is one of the values wins instead, and text naming a value (its JSON,
// or failing that its title) is that value, so "level=3" is the number 3
// when the enum says so and "colour=Red" picks the value titled Red. A
// field with no types takes the text as a string; a nil field is one the
// schema does not describe.
//
// Surrounding spaces mean nothing to numbers, booleans and null, and an
// array's items are trimmed ("a, b" is ["a","b"]); strings keep them.
func (f *Field) Parse(text string) (any, error) {
	if f == nil || len(f.Types) == 0 {
		if v, ok := f.member(text); ok {
			return v, nil
		}
		return text, nil
	}
	var first any
	var have bool
	var firstErr error
	for _, typ := range f.Types {
		v, err := f.scalar(text, typ)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if len(f.Enum) == 0 || v == nil || f.isMember(v) || f.isFree(typ) {
			return v, nil
		}
		if !have {
			first, have = v, true
		}
	}
	if v, ok := f.member(text); ok {
		return v, nil
	}
	if have {
		return first, nil // not one of the values: validation says so
	}
	return nil, firstErr
}

// ParseJSON reads text as one JSON value, as key:=value does.
func ParseJSON(text string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("%q is not valid JSON (key:=value takes JSON)", text)
	}
	return v, nil
}

// Parse reads the text for the top-level field called name (raw: as JSON,
// like key:=value).
func (s *Schema) Parse(name, text string, raw bool) (any, error) {
	if raw {
		return ParseJSON(text)
	}
	return s.Field(name).Parse(text)
}

func (f *Field) scalar(val, typ string) (any, error) {
	trimmed := strings.TrimSpace(val)
	switch typ {
	case "string":
		return val, nil
	case "integer":
		n, err := strconv.ParseInt(trimmed, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", val)
		}
		return n, nil
	case "number":
		n, err := strconv.ParseFloat(trimmed, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", val)
		}
		return n, nil
	case "boolean":
		b, err := strconv.ParseBool(trimmed)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", val)
		}
		return b, nil
	case "null":
		if trimmed == "null" {
			return nil, nil
		}
		return nil, fmt.Errorf("%q is not null", val)
	case "array":
		return f.list(val)
	case "object":
		var v map[string]any
		if err := json.Unmarshal([]byte(val), &v); err != nil || v == nil {
			return nil, fmt.Errorf("%q is not a JSON object", val)
		}
		return v, nil
	}
	return val, nil // a type mcpsh does not know: the text as typed
}

// list reads an array: a JSON array, or items separated by commas, each
// typed by the items' schema.
func (f *Field) list(val string) (any, error) {
	trimmed := strings.TrimSpace(val)
	if strings.HasPrefix(trimmed, "[") {
		var v []any
		if err := json.Unmarshal([]byte(trimmed), &v); err != nil {
			return nil, fmt.Errorf("%q is not a JSON array: %v", val, err)
		}
		return v, nil
	}
	out := []any{}
	if trimmed == "" {
		return out, nil
	}
	for _, part := range strings.Split(trimmed, ",") {
		part = strings.TrimSpace(part)
		v, err := f.Items.Parse(part)
		if err != nil {
			return nil, fmt.Errorf("item %q: %v", part, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func (f *Field) isMember(v any) bool {
	return slices.ContainsFunc(f.Enum, func(e any) bool { return sameJSON(e, v) })
}

// isFree reports a type a value may have outside the enum.
func (f *Field) isFree(typ string) bool {
	return slices.Contains(f.free, typ) || (typ == "integer" && slices.Contains(f.free, "number"))
}

// member is the enum value text names: by its JSON text (strings bare), or
// else by its title when exactly one value has that title.
func (f *Field) member(text string) (any, bool) {
	if f == nil {
		return nil, false
	}
	for _, e := range f.Enum {
		if ValueText(e) == text {
			return e, true
		}
	}
	var found any
	n := 0
	for i, t := range f.EnumTitles {
		if t != "" && t == text && i < len(f.Enum) {
			found, n = f.Enum[i], n+1
		}
	}
	return found, n == 1
}

// ValueText is a JSON value as a person would type it: strings bare,
// anything else as compact JSON.
func ValueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return CompactJSON(v)
}

// CompactJSON is v as one line of JSON, without HTML escaping.
func CompactJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Label is how a choice shows enum value i: its title, or the value.
func (f *Field) Label(i int) string {
	if i < len(f.EnumTitles) && f.EnumTitles[i] != "" {
		return f.EnumTitles[i]
	}
	if i < len(f.Enum) {
		return ValueText(f.Enum[i])
	}
	return ""
}
