package client

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
)

// Small readers of schema keywords, each lenient: a value of the wrong
// shape reads as absent.

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

// NonNull is types without "null".
func NonNull(types []string) []string {
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
