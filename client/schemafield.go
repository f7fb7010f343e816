package client

import (
	"bytes"
	"encoding/json"
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
	nn := NonNull(f.Types)
	if len(f.Enum) > 0 && len(NonNull(f.free)) == 0 {
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
