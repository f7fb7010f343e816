package client

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
)

// readOwn reads the keywords a subschema sets itself; they win over what a
// $ref's target or an allOf branch said.
func (f *Field) readOwn(r *schemaReader, p map[string]json.RawMessage, path string, depth int) {
	f.readNotes(p)
	if t := schemaTypes(p["type"]); t != nil {
		f.Types, f.set.types = t, true
	}
	var enum []any
	if decode(p["enum"], &enum) && enum != nil {
		f.Enum, f.EnumTitles, f.free, f.set.enum = enum, enumNames(p["enumNames"], len(enum)), nil, true
	} else if c, ok := p["const"]; ok {
		var v any
		if json.Unmarshal(c, &v) == nil {
			f.Enum, f.EnumTitles, f.free, f.set.enum = []any{v}, nil, nil, true
		}
	}
	decode(p["format"], &f.Format)
	decode(p["pattern"], &f.Pattern)
	setNum(p["minimum"], &f.Minimum)
	setNum(p["maximum"], &f.Maximum)
	setNum(p["multipleOf"], &f.MultipleOf)
	// exclusiveMinimum is a number from draft-06 on, a flag on minimum before.
	if v := number(p["exclusiveMinimum"]); v != nil {
		f.Minimum, f.ExclusiveMinimum = v, true
	} else if b, ok := flag(p["exclusiveMinimum"]); ok && f.Minimum != nil {
		f.ExclusiveMinimum = b
	}
	if v := number(p["exclusiveMaximum"]); v != nil {
		f.Maximum, f.ExclusiveMaximum = v, true
	} else if b, ok := flag(p["exclusiveMaximum"]); ok && f.Maximum != nil {
		f.ExclusiveMaximum = b
	}
	setCount(p["minLength"], &f.MinLength)
	setCount(p["maxLength"], &f.MaxLength)
	setCount(p["minItems"], &f.MinItems)
	setCount(p["maxItems"], &f.MaxItems)
	if b, ok := flag(p["uniqueItems"]); ok {
		f.UniqueItems = b
	}
	// items as a list (a tuple) describes no one item: the items are then untyped.
	if it := bytes.TrimSpace(p["items"]); len(it) > 0 && it[0] == '{' {
		f.Items = r.field(it, path+"/items", depth+1)
	}
}

// readNotes reads the words for people and the default.
func (f *Field) readNotes(p map[string]json.RawMessage) {
	decode(p["title"], &f.Title)
	decode(p["description"], &f.Description)
	if d, ok := p["default"]; ok {
		f.HasDefault, f.defaultRaw, f.Default = true, d, nil
		_ = json.Unmarshal(d, &f.Default)
	}
}

// fill takes from an allOf branch what f does not say itself.
func (f *Field) fill(o *Field) {
	if f.Title == "" {
		f.Title = o.Title
	}
	if f.Description == "" {
		f.Description = o.Description
	}
	if !f.HasDefault && o.HasDefault {
		f.HasDefault, f.defaultRaw, f.Default = true, o.defaultRaw, o.Default
	}
	if !f.set.types && o.Types != nil {
		f.Types, f.set.types = o.Types, true
	}
	if !f.set.enum && len(o.Enum) > 0 {
		f.Enum, f.EnumTitles, f.free, f.set.enum = o.Enum, o.EnumTitles, o.free, true
	}
	f.fillRules(o)
}

// fillRules takes the rules f lacks from o: from an allOf branch, or from
// the first anyOf branch that has them (the rules of Optional[X] are X's).
func (f *Field) fillRules(o *Field) {
	if f.Format == "" {
		f.Format = o.Format
	}
	if f.Pattern == "" {
		f.Pattern = o.Pattern
	}
	if f.Minimum == nil {
		f.Minimum, f.ExclusiveMinimum = o.Minimum, o.ExclusiveMinimum
	}
	if f.Maximum == nil {
		f.Maximum, f.ExclusiveMaximum = o.Maximum, o.ExclusiveMaximum
	}
	for _, p := range []struct{ to, from **int }{{&f.MinLength, &o.MinLength}, {&f.MaxLength, &o.MaxLength},
		{&f.MinItems, &o.MinItems}, {&f.MaxItems, &o.MaxItems}} {
		if *p.to == nil {
			*p.to = *p.from
		}
	}
	if f.MultipleOf == nil {
		f.MultipleOf = o.MultipleOf
	}
	f.UniqueItems = f.UniqueItems || o.UniqueItems
	if f.Items == nil {
		f.Items = o.Items
	}
}

// union reads anyOf/oneOf branches: their types, in order (unless the
// schema says its own), and their values when each branch is an enum or a
// const (a titled enum). A branch that allows any value makes both unknown.
func (f *Field) union(bs []*Field) {
	if len(bs) == 0 {
		return
	}
	var types, free []string
	var enum []any
	var titles []string
	titled, unknown := false, false
	for _, b := range bs {
		bt := b.Types
		switch {
		case len(b.Enum) > 0:
			if bt == nil {
				bt = kindsOf(b.Enum)
			}
			for i, v := range b.Enum {
				if !slices.ContainsFunc(enum, func(e any) bool { return sameJSON(e, v) }) {
					enum = append(enum, v)
					titles = append(titles, b.enumTitle(i))
					titled = titled || titles[len(titles)-1] != ""
				}
			}
			free = addNew(free, b.free...)
		case bt == nil:
			unknown = true
		default:
			free = addNew(free, bt...)
		}
		types = addNew(types, bt...)
		f.fillRules(b)
	}
	if unknown {
		return
	}
	if !f.set.types {
		f.Types = types
	}
	if !f.set.enum && len(enum) > 0 {
		f.Enum, f.free, f.EnumTitles = enum, free, nil
		if titled {
			f.EnumTitles = titles
		}
	}
}

func (f *Field) enumTitle(i int) string {
	switch {
	case i < len(f.EnumTitles):
		return f.EnumTitles[i]
	case len(f.Enum) == 1:
		return f.Title // {"const": "x", "title": "X"}
	}
	return ""
}

// classify picks the input for a field.
func (f *Field) classify() Input {
	nn := nonNull(f.Types)
	if len(f.Enum) > 0 && len(nonNull(f.free)) == 0 {
		if allScalar(f.Enum) && !slices.Contains(nn, "array") && !slices.Contains(nn, "object") {
			return InputChoice
		}
		return InputJSON
	}
	if len(nn) == 0 {
		return InputJSON
	}
	if len(nn) > 1 {
		// Several scalar types: one text input, typed like key=value (each
		// type tried in order).
		if slices.ContainsFunc(nn, func(t string) bool { return !isScalarType(t) }) {
			return InputJSON
		}
		if nn[0] == "boolean" {
			return InputText
		}
	}
	switch nn[0] {
	case "string":
		return InputText
	case "number":
		return InputNumber
	case "integer":
		return InputInteger
	case "boolean":
		return InputBool
	case "array":
		if f.Items == nil {
			return InputList
		}
		switch f.Items.Input {
		case InputChoice:
			return InputMulti
		case InputText, InputNumber, InputInteger, InputBool:
			return InputList
		}
	}
	return InputJSON
}

// schemaTypes reads "type": one string or an array of strings; other
// entries are ignored.
func schemaTypes(raw json.RawMessage) []string {
	if isNull(raw) {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one == "" {
			return nil
		}
		return []string{one}
	}
	var many []any
	if json.Unmarshal(raw, &many) != nil {
		return nil
	}
	var out []string
	for _, t := range many {
		if s, ok := t.(string); ok && s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// enumNames reads the legacy titles of an enum, when there is one string
// for each value.
func enumNames(raw json.RawMessage, n int) []string {
	var names []string
	if !decode(raw, &names) || len(names) != n {
		return nil
	}
	return names
}

// decode reads a keyword that is there; most are not, and a failed
// json.Unmarshal costs an error value each time.
func decode(raw json.RawMessage, to any) bool {
	return len(raw) > 0 && json.Unmarshal(raw, to) == nil
}

func number(raw json.RawMessage) *float64 {
	var v float64
	if isNull(raw) || !decode(raw, &v) {
		return nil
	}
	return &v
}

func setNum(raw json.RawMessage, to **float64) {
	if v := number(raw); v != nil {
		*to = v
	}
}

// setCount reads a length or item count: a whole number, 1.0 included.
func setCount(raw json.RawMessage, to **int) {
	v := number(raw)
	if v == nil || *v != math.Trunc(*v) || *v < 0 || *v > math.MaxInt32 {
		return
	}
	n := int(*v)
	*to = &n
}

func flag(raw json.RawMessage) (bool, bool) {
	var b bool
	return b, !isNull(raw) && decode(raw, &b)
}

// kindsOf are the JSON types of some values.
func kindsOf(vals []any) []string {
	var out []string
	for _, v := range vals {
		k := "object"
		switch v := v.(type) {
		case nil:
			k = "null"
		case string:
			k = "string"
		case bool:
			k = "boolean"
		case float64:
			k = "number"
			if v == math.Trunc(v) {
				k = "integer"
			}
		case []any:
			k = "array"
		}
		out = addNew(out, k)
	}
	return out
}

func nonNull(types []string) []string {
	var out []string
	for _, t := range types {
		if t != "null" {
			out = append(out, t)
		}
	}
	return out
}

func isScalarType(t string) bool {
	switch t {
	case "string", "number", "integer", "boolean":
		return true
	}
	return false
}

func allScalar(vals []any) bool {
	for _, v := range vals {
		switch v.(type) {
		case nil, string, float64, bool:
		default:
			return false
		}
	}
	return true
}

// sameJSON compares values as JSON: int64(3) is float64(3).
func sameJSON(a, b any) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}
