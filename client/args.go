package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// UsageError is input mcpsh could not make sense of; nothing was sent.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// ParseArgs reads a call's arguments from the command line: either one JSON
// object, or key=value pairs typed by the input schema (count=3 is a number
// when the schema says so, a string otherwise; see Field.Parse). key:=JSON
// forces a JSON value. Array arguments also take a comma-separated list
// (tags=a,b).
func (t *Tool) ParseArgs(argv []string) (map[string]any, error) {
	switch {
	case isJSONArgs(argv):
		return ParseJSONArgs(t.Name, []byte(argv[0]))
	case len(argv) == 0:
		return map[string]any{}, nil
	}
	// Parsing only reads the schema, so every line of a script shares one.
	t.schemas.argsOnce.Do(func() { t.schemas.args = t.Input() })
	return t.schemas.args.ParseArgs(argv)
}

// ParseArgs reads key=value pairs (or one JSON object) typed by the schema,
// as Tool.ParseArgs does.
func (s *Schema) ParseArgs(argv []string) (map[string]any, error) {
	if isJSONArgs(argv) {
		return ParseJSONArgs(s.name, []byte(argv[0]))
	}
	fields := make(map[string]*Field, len(s.Fields))
	for _, f := range s.Fields {
		fields[f.Name] = f
	}
	name := safeText(s.name)
	args := map[string]any{}
	for _, a := range argv {
		key, val, raw, ok := splitPair(a)
		if !ok {
			return nil, usagef("%s: argument %q is not key=value (or pass one JSON object)", name, a)
		}
		if _, dup := args[key]; dup {
			return nil, usagef("%s: argument %q given twice", name, key)
		}
		var v any
		var err error
		if raw {
			v, err = ParseJSON(val)
		} else {
			v, err = fields[key].Parse(val)
		}
		if err != nil {
			return nil, usagef("%s: argument %q: %v", name, key, err)
		}
		args[key] = v
	}
	return args, nil
}

func isJSONArgs(argv []string) bool {
	return len(argv) == 1 && strings.HasPrefix(strings.TrimSpace(argv[0]), "{")
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
// same rules as key=value on the command line (raw: as key:=JSON). It reads
// the schema on every call: a caller with many values keeps Input().
func (t *Tool) ParseValue(key, val string, raw bool) (any, error) {
	if raw {
		return ParseJSON(val)
	}
	return t.Input().Parse(key, val, false)
}
