package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// fieldKind is how the argument editor lets the user enter one property.
type fieldKind int

const (
	kindString  fieldKind = iota
	kindNumber            // a number, typed in a text input
	kindInteger           // an integer, typed in a text input
	kindBoolean           // a choice of (unset) / true / false
	kindEnum              // a choice of (unset) / each value
	kindArray             // an array of scalars: "a, b, c" or a JSON array
	kindJSON              // anything else, entered as JSON text
)

// fieldSpec is one top-level property of a schema, as far as the argument
// editor and the detail pane need it. Name, Description, Enum, Default and
// Constraints are the server's text: sanitize them (termtext) before display.
type fieldSpec struct {
	Name        string
	Kind        fieldKind
	Types       []string // the schema's type(s), e.g. ["integer","null"]; for anyOf/oneOf the union of the branches' types; empty when none
	ItemTypes   []string // for arrays
	Description string
	Required    bool
	Enum        []any
	Default     any
	HasDefault  bool
	Constraints string // a short summary of other rules: "1–50", "≥ 1", "min length 1", "format email"
}

// compoundKeywords make a property too rich for a single typed input.
var compoundKeywords = []string{"anyOf", "oneOf", "allOf", "$ref", "not", "if"}

// parseFields lists a schema's top-level properties in the order they appear
// in the JSON text (a Go map would lose it), with "required" applied. It is
// total: a missing or null schema has no fields, and only a schema or
// "properties" that is not an object is an error.
func parseFields(schema json.RawMessage) ([]fieldSpec, error) {
	if isNullJSON(schema) {
		return nil, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(schema, &top); err != nil || top == nil {
		return nil, fmt.Errorf("schema is %s, not a JSON object", jsonKindOf(schema))
	}
	props := top["properties"]
	if isNullJSON(props) {
		return nil, nil
	}
	names, raws, err := orderedObject(props)
	if err != nil {
		return nil, fmt.Errorf("schema properties are %s, not an object", jsonKindOf(props))
	}
	required := map[string]bool{}
	var req []any
	if json.Unmarshal(top["required"], &req) == nil {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	fields := make([]fieldSpec, 0, len(names))
	for i, name := range names {
		f := parseProperty(raws[i])
		f.Name = name
		f.Required = required[name]
		fields = append(fields, f)
	}
	return fields, nil
}

// orderedObject returns an object's keys in text order with their values. A
// key given twice keeps its first place and its last value, as json.Unmarshal
// would.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("not an object")
	}
	var names []string
	var vals []json.RawMessage
	at := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, ok := tok.(string)
		if !ok {
			return nil, nil, errors.New("object key is not a string")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if i, dup := at[name]; dup {
			vals[i] = v
			continue
		}
		at[name] = len(names)
		names = append(names, name)
		vals = append(vals, v)
	}
	return names, vals, nil
}

// parseProperty reads one property's schema. A property that is not an
// object (a boolean schema, say) takes any JSON.
func parseProperty(raw json.RawMessage) fieldSpec {
	f := fieldSpec{Kind: kindJSON}
	var p map[string]json.RawMessage
	if json.Unmarshal(raw, &p) != nil || p == nil {
		return f
	}
	_ = json.Unmarshal(p["description"], &f.Description)
	if d, ok := p["default"]; ok {
		f.HasDefault = true
		_ = json.Unmarshal(d, &f.Default)
	}
	f.Types = schemaTypes(p["type"])
	compound := slices.ContainsFunc(compoundKeywords, func(k string) bool { _, ok := p[k]; return ok })
	if len(f.Types) == 0 {
		f.Types = unionTypes(p["anyOf"], p["oneOf"])
	}
	var items map[string]json.RawMessage
	if slices.Contains(f.Types, "array") && json.Unmarshal(p["items"], &items) == nil && items != nil {
		f.ItemTypes = schemaTypes(items["type"])
	}
	_ = json.Unmarshal(p["enum"], &f.Enum)
	if c, ok := p["const"]; ok && len(f.Enum) == 0 {
		var v any
		if json.Unmarshal(c, &v) == nil {
			f.Enum = []any{v}
		}
	}
	f.Kind = classify(f, compound, items)
	f.Constraints = constraints(p, items)
	return f
}

// classify picks the input for a property.
func classify(f fieldSpec, compound bool, items map[string]json.RawMessage) fieldKind {
	if compound {
		return kindJSON
	}
	nn := nonNull(f.Types)
	if len(f.Enum) > 0 {
		if allScalar(f.Enum) && !slices.Contains(nn, "array") && !slices.Contains(nn, "object") {
			return kindEnum
		}
		return kindJSON
	}
	if len(nn) == 0 {
		return kindJSON
	}
	if len(nn) > 1 {
		// Several scalar types: one text input, typed like key=value (each
		// type tried in order).
		for _, t := range nn {
			if !isScalarType(t) {
				return kindJSON
			}
		}
		if nn[0] == "boolean" {
			return kindString
		}
	}
	switch nn[0] {
	case "string":
		return kindString
	case "number":
		return kindNumber
	case "integer":
		return kindInteger
	case "boolean":
		return kindBoolean
	case "array":
		if items == nil {
			return kindArray
		}
		if slices.ContainsFunc(compoundKeywords, func(k string) bool { _, ok := items[k]; return ok }) {
			return kindJSON
		}
		it := nonNull(schemaTypes(items["type"]))
		if len(it) == 0 {
			return kindJSON
		}
		for _, t := range it {
			if !isScalarType(t) {
				return kindJSON
			}
		}
		return kindArray
	}
	return kindJSON
}

// TypeLabel names the field's type for people: "string", "integer | null",
// "string enum", "array of string", "object (JSON)", "any (JSON)".
func (f fieldSpec) TypeLabel() string {
	switch f.Kind {
	case kindEnum:
		if nn := nonNull(f.Types); len(nn) > 0 {
			return strings.Join(nn, " | ") + " enum"
		}
		return "enum"
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
func constraints(p, items map[string]json.RawMessage) string {
	var out []string
	num := func(key string) (string, bool) {
		var n json.Number
		if json.Unmarshal(p[key], &n) != nil || n == "" {
			return "", false
		}
		return n.String(), true
	}
	lo, hasLo := num("minimum")
	hi, hasHi := num("maximum")
	minOp, maxOp := "≥", "≤"
	var exMinFlag, exMaxFlag bool // draft-04 booleans
	if json.Unmarshal(p["exclusiveMinimum"], &exMinFlag) == nil && exMinFlag {
		minOp = ">"
	}
	if json.Unmarshal(p["exclusiveMaximum"], &exMaxFlag) == nil && exMaxFlag {
		maxOp = "<"
	}
	if v, ok := num("exclusiveMinimum"); ok {
		lo, hasLo, minOp = v, true, ">"
	}
	if v, ok := num("exclusiveMaximum"); ok {
		hi, hasHi, maxOp = v, true, "<"
	}
	switch {
	case hasLo && hasHi && minOp == "≥" && maxOp == "≤":
		out = append(out, lo+"–"+hi)
	default:
		if hasLo {
			out = append(out, minOp+" "+lo)
		}
		if hasHi {
			out = append(out, maxOp+" "+hi)
		}
	}
	if v, ok := num("multipleOf"); ok {
		out = append(out, "multiple of "+v)
	}
	if lo, hi, ok := numRange(num, "minLength", "maxLength"); ok {
		out = append(out, rangeText(lo, hi, "length %s–%s", "min length %s", "max length %s"))
	}
	if lo, hi, ok := numRange(num, "minItems", "maxItems"); ok {
		out = append(out, rangeText(lo, hi, "%s–%s items", "at least %s", "at most %s"))
		if hi == "" || lo == "" {
			if n := lo + hi; n == "1" {
				out[len(out)-1] += " item"
			} else {
				out[len(out)-1] += " items"
			}
		}
	}
	var unique bool
	if json.Unmarshal(p["uniqueItems"], &unique) == nil && unique {
		out = append(out, "unique items")
	}
	var s string
	if json.Unmarshal(p["format"], &s) == nil && s != "" {
		out = append(out, "format "+s)
	}
	s = ""
	if json.Unmarshal(p["pattern"], &s) == nil && s != "" {
		out = append(out, "pattern "+s)
	}
	var itemEnum []any
	if items != nil && json.Unmarshal(items["enum"], &itemEnum) == nil && len(itemEnum) > 0 {
		var vals []string
		for _, v := range itemEnum {
			vals = append(vals, valueText(v))
		}
		out = append(out, "items one of "+strings.Join(vals, ", "))
	}
	return strings.Join(out, ", ")
}

// numRange reads a pair of bounds; ok is false when neither is set.
func numRange(num func(string) (string, bool), minKey, maxKey string) (lo, hi string, ok bool) {
	lo, hasLo := num(minKey)
	hi, hasHi := num(maxKey)
	return lo, hi, hasLo || hasHi
}

// rangeText words a range with one bound or both.
func rangeText(lo, hi, both, onlyLo, onlyHi string) string {
	switch {
	case lo != "" && hi != "":
		return fmt.Sprintf(both, lo, hi)
	case lo != "":
		return fmt.Sprintf(onlyLo, lo)
	}
	return fmt.Sprintf(onlyHi, hi)
}

// schemaTypes reads "type": one string or an array of strings.
func schemaTypes(raw json.RawMessage) []string {
	if isNullJSON(raw) {
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

// unionTypes collects the types of anyOf/oneOf branches, or nil when a
// branch has none (it could be anything).
func unionTypes(lists ...json.RawMessage) []string {
	var out []string
	for _, raw := range lists {
		if isNullJSON(raw) {
			continue
		}
		var branches []map[string]json.RawMessage
		if json.Unmarshal(raw, &branches) != nil {
			return nil
		}
		for _, b := range branches {
			ts := schemaTypes(b["type"])
			if len(ts) == 0 {
				return nil
			}
			for _, t := range ts {
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// schemaIsComplex reports a top-level schema that a form of one input per
// property cannot express: combinators, or extra properties with a schema.
func schemaIsComplex(schema json.RawMessage) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil {
		return false
	}
	for _, k := range append(slices.Clone(compoundKeywords), "patternProperties", "dependentSchemas") {
		if _, ok := top[k]; ok {
			return true
		}
	}
	ap := bytes.TrimSpace(top["additionalProperties"])
	return len(ap) > 0 && ap[0] == '{'
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

func isNullJSON(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}

// jsonKindOf names the kind of a JSON text for messages.
func jsonKindOf(raw json.RawMessage) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return "empty"
	}
	switch s[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	if json.Valid(s) {
		return "a number"
	}
	return "not valid JSON"
}

// valueText shows a JSON value the way a user would type it: strings bare,
// everything else as compact JSON. It is the server's text: sanitize it.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return compactJSON(v)
}

// compactJSON is v as one line of JSON, without HTML escaping.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
