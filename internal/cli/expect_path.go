package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpsh/mcpsh/internal/units"
)

// jsonPath is a place in a JSON value, in a small subset of jq's syntax that
// means the same there: "." is the whole value, .key and ["any key"] a member
// of an object, [N] an item of an array (from 0).
type jsonPath []pathStep

type pathStep struct {
	Key   string
	Index int // when IsIndex
	// IsIndex: an array item rather than an object member.
	IsIndex bool
}

// maxIndex bounds [N]: no result holds more items, and it keeps N an int.
const maxIndex = 1 << 30

// parsePath reads a path at the start of s and says where it ended: at the
// end of s or at the first character that cannot continue it.
func parsePath(s string) (jsonPath, int, error) {
	if !strings.HasPrefix(s, ".") {
		return nil, 0, fmt.Errorf(`%q: a path starts with ".", as in .note.tags[0] or .["a key"]`, cut(s, 20))
	}
	var p jsonPath
	i := 1
	if i < len(s) && !identStart(s[i]) && !strings.ContainsRune(" \t=[", rune(s[i])) {
		return nil, 0, fmt.Errorf(`at %q: after "." comes a key of letters, digits and _ (other keys are written ["a key"])`, cut(s, 20))
	}
	if i < len(s) && identStart(s[i]) {
		key, j := ident(s, i)
		p, i = append(p, pathStep{Key: key}), j
	}
	for i < len(s) {
		switch s[i] {
		case '.':
			if i+1 >= len(s) || !identStart(s[i+1]) {
				return nil, 0, fmt.Errorf(`at %q: after "." comes a key of letters, digits and _ (other keys are written ["a key"])`, cut(s[i:], 20))
			}
			key, j := ident(s, i+1)
			p, i = append(p, pathStep{Key: key}), j
		case '[':
			step, j, err := bracket(s, i)
			if err != nil {
				return nil, 0, err
			}
			p, i = append(p, step), j
		default:
			return p, i, nil
		}
	}
	return p, i, nil
}

func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func ident(s string, i int) (string, int) {
	j := i
	for j < len(s) && (identStart(s[j]) || s[j] >= '0' && s[j] <= '9') {
		j++
	}
	return s[i:j], j
}

// bracket reads ["key"] or [N] at s[i].
func bracket(s string, i int) (pathStep, int, error) {
	j := i + 1
	var step pathStep
	switch {
	case j < len(s) && s[j] == '"':
		k := j + 1
		for k < len(s) && s[k] != '"' {
			if s[k] == '\\' {
				k++
			}
			k++
		}
		if k >= len(s) {
			return step, 0, fmt.Errorf(`at %q: the key's " is not closed`, cut(s[i:], 20))
		}
		if err := json.Unmarshal([]byte(s[j:k+1]), &step.Key); err != nil {
			return step, 0, fmt.Errorf("at %q: the key is not a JSON string: %v", cut(s[i:], 20), err)
		}
		j = k + 1
	case j < len(s) && s[j] >= '0' && s[j] <= '9':
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		n, err := strconv.Atoi(s[j:k])
		if err != nil || n > maxIndex {
			return step, 0, fmt.Errorf("at %q: the index is too large", cut(s[i:], 20))
		}
		step.Index, step.IsIndex, j = n, true, k
	default:
		return step, 0, fmt.Errorf(`at %q: want ["key"] or [N] (N from 0)`, cut(s[i:], 20))
	}
	if j >= len(s) || s[j] != ']' {
		return step, 0, fmt.Errorf(`at %q: want "]"`, cut(s[i:], 20))
	}
	return step, j + 1, nil
}

// cut keeps error messages short whatever the line holds.
func cut(s string, n int) string {
	for i := range s {
		if i >= n {
			return s[:i] + "…"
		}
	}
	return s
}

// String writes the path back the way parsePath reads it.
func (p jsonPath) String() string {
	if len(p) == 0 {
		return "."
	}
	var b strings.Builder
	for _, st := range p {
		switch {
		case st.IsIndex:
			fmt.Fprintf(&b, "[%d]", st.Index)
		case isIdent(st.Key):
			b.WriteString("." + st.Key)
		default:
			b.WriteString("[" + jsonText(st.Key) + "]")
		}
	}
	if s := b.String(); strings.HasPrefix(s, ".") {
		return s
	}
	return "." + b.String() // .[0], .["a key"]
}

func isIdent(s string) bool {
	if s == "" || !identStart(s[0]) {
		return false
	}
	_, j := ident(s, 0)
	return j == len(s)
}

// lookup finds the path in v, or says where it stopped.
func (p jsonPath) lookup(v any) (any, error) {
	for i, st := range p {
		at := p[:i].String()
		if st.IsIndex {
			arr, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s is %s, not an array", at, jsonKindOf(v))
			}
			if st.Index >= len(arr) {
				return nil, fmt.Errorf("%s has %s, no [%d]", at, units.Plural(len(arr), "item"), st.Index)
			}
			v = arr[st.Index]
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s is %s, not an object", at, jsonKindOf(v))
		}
		if v, ok = obj[st.Key]; !ok {
			return nil, fmt.Errorf("%s has no key %s", at, jsonText(st.Key))
		}
	}
	return v, nil
}

func jsonKindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}
