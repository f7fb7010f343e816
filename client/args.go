package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// UsageError is input mcpsh could not make sense of; nothing was sent.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// ParseArgs reads a call's arguments from the command line: either one JSON
// object, or key=value pairs typed by the input schema (count=3 is a number
// when the schema says so, a string otherwise). key:=JSON forces a JSON value.
// Array arguments also take a comma-separated list (tags=a,b).
func (t *Tool) ParseArgs(argv []string) (map[string]any, error) {
	if len(argv) == 1 && strings.HasPrefix(strings.TrimSpace(argv[0]), "{") {
		return ParseJSONArgs(t.Name, []byte(argv[0]))
	}
	props := t.properties()
	name := safeText(t.Name)
	args := map[string]any{}
	for _, a := range argv {
		key, val, raw, ok := splitPair(a)
		if !ok {
			return nil, usagef("%s: argument %q is not key=value (or pass one JSON object)", name, a)
		}
		if _, dup := args[key]; dup {
			return nil, usagef("%s: argument %q given twice", name, key)
		}
		v, err := typedValue(val, raw, props[key])
		if err != nil {
			return nil, usagef("%s: argument %q: %v", name, key, err)
		}
		args[key] = v
	}
	return args, nil
}

// ParseJSONArgs decodes arguments given as one JSON object. tool is the
// tool's name, as the server sent it.
func ParseJSONArgs(tool string, data []byte) (map[string]any, error) {
	tool = safeText(tool)
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, usagef("%s: arguments are not valid JSON: %v", tool, err)
	}
	if dec.More() {
		return nil, usagef("%s: arguments have text after the JSON object", tool)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, usagef("%s: arguments must be a JSON object, not %s", tool, jsonKind(v))
	}
	return obj, nil
}

func splitPair(a string) (key, val string, raw, ok bool) {
	i := strings.IndexByte(a, '=')
	if i <= 0 {
		return "", "", false, false
	}
	key, val = a[:i], a[i+1:]
	if k, isRaw := strings.CutSuffix(key, ":"); isRaw {
		key, raw = k, true
	}
	return key, val, raw, key != ""
}

// propSchema is the part of a property's schema that decides how to read a value.
type propSchema struct {
	Type  json.RawMessage `json:"type"`
	Items *propSchema     `json:"items"`
	AnyOf []*propSchema   `json:"anyOf"`
	OneOf []*propSchema   `json:"oneOf"`
}

// types are the JSON types a value may have: the schema's "type", or else
// those of its anyOf/oneOf branches (pydantic writes Optional[int] that way).
// Each type appears once: a value is tried as each in turn, and an array
// listed twice at every level of nested items would be tried 2^depth times.
func (p *propSchema) types() []string {
	if p == nil {
		return nil
	}
	if !isNull(p.Type) {
		var one string
		if json.Unmarshal(p.Type, &one) == nil {
			return []string{one}
		}
		var many, out []string
		_ = json.Unmarshal(p.Type, &many)
		for _, t := range many {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
		return out
	}
	var out []string
	for _, b := range append(append([]*propSchema{}, p.AnyOf...), p.OneOf...) {
		for _, t := range b.types() {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func (t *Tool) properties() map[string]*propSchema {
	var s struct {
		Properties map[string]*propSchema `json:"properties"`
	}
	_ = json.Unmarshal(t.InputSchema, &s)
	return s.Properties
}

func typedValue(val string, raw bool, p *propSchema) (any, error) {
	if raw {
		var v any
		if err := json.Unmarshal([]byte(val), &v); err != nil {
			return nil, fmt.Errorf("%q is not valid JSON (key:=value takes JSON)", val)
		}
		return v, nil
	}
	types := p.types()
	if len(types) == 0 {
		return val, nil // no schema type: a string, as typed
	}
	var firstErr error
	for _, typ := range types {
		v, err := scalar(val, typ, p)
		if err == nil {
			return v, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

func scalar(val, typ string, p *propSchema) (any, error) {
	switch typ {
	case "string":
		return val, nil
	case "integer":
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", val)
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", val)
		}
		return f, nil
	case "boolean":
		b, err := strconv.ParseBool(val)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", val)
		}
		return b, nil
	case "null":
		if val == "null" {
			return nil, nil
		}
		return nil, fmt.Errorf("%q is not null", val)
	case "array":
		if strings.HasPrefix(strings.TrimSpace(val), "[") {
			var v []any
			if err := json.Unmarshal([]byte(val), &v); err != nil {
				return nil, fmt.Errorf("%q is not a JSON array: %v", val, err)
			}
			return v, nil
		}
		out := []any{}
		if val == "" {
			return out, nil
		}
		for _, part := range strings.Split(val, ",") {
			v, err := typedValue(part, false, p.Items)
			if err != nil {
				return nil, fmt.Errorf("item %q: %v", part, err)
			}
			out = append(out, v)
		}
		return out, nil
	case "object":
		var v map[string]any
		if err := json.Unmarshal([]byte(val), &v); err != nil || v == nil {
			return nil, fmt.Errorf("%q is not a JSON object", val)
		}
		return v, nil
	}
	return val, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "an object"
}

// ParseValue reads one argument's text typed by the input schema, by the
// same rules as key=value on the command line (raw: as key:=JSON).
func (t *Tool) ParseValue(key, val string, raw bool) (any, error) {
	return typedValue(val, raw, t.properties()[key])
}
