package client

import (
	"encoding/json"
	"strings"

	"github.com/mcpsh/mcpsh/policy"
)

// A server that lists one name twice has not said which definition a call
// will meet. Taking the first would let a hostile server put a lenient
// definition before a dangerous one, so the strictest reading decides: hint
// by hint, the value policy treats more carefully (policy.Strictest), and the
// schema, title and description of the definition whose class is the more
// dangerous.

// strictestOf combines two definitions of one tool name.
func strictestOf(a, b *Tool) *Tool {
	base, other := a, b
	if danger(b) > danger(a) {
		base, other = b, a
	}
	h := policy.Strictest(base.Hints, other.Hints)
	t, err := parseTool(base.Raw)
	if err != nil {
		return base // cannot happen: base parsed once already
	}
	t.Hints = h
	t.Declared = nil
	for _, f := range policy.Fields {
		from := base
		if h.Get(f) != base.Hints.Get(f) {
			from = other
		}
		if raw, ok := from.Declared[string(f)]; ok {
			if t.Declared == nil {
				t.Declared = map[string]json.RawMessage{}
			}
			t.Declared[string(f)] = raw
		}
	}
	t.HasAnnotations = base.HasAnnotations || other.HasAnnotations
	t.Problems = append(t.Problems, "listed more than once: the strictest reading of the definitions decides")
	return t
}

// danger ranks a definition for choosing whose schema and texts are kept.
func danger(t *Tool) int {
	e := t.Effective()
	n := map[policy.Class]int{policy.ClassReadOnly: 0, policy.ClassWrite: 4, policy.ClassDestructive: 8}[t.Class()]
	if !e.Idempotent {
		n += 2
	}
	if e.OpenWorld {
		n++
	}
	return n
}

// describeClass is a tool's class and flags in words, for warnings.
func describeClass(t *Tool) string {
	e := t.Effective()
	words := []string{string(t.Class())}
	if !e.ReadOnly {
		if e.Idempotent {
			words = append(words, "idempotent")
		} else {
			words = append(words, "not idempotent")
		}
	}
	if e.OpenWorld {
		words = append(words, "open-world")
	}
	return strings.Join(words, ", ")
}
