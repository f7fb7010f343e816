package client

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
)

// A schema that passed the guard can still be costly to check a value
// against. jsonschema-go recurses once per subschema it applies, at about
// 4 KB of stack each, and takes a step for every subschema applied to every
// part of the value; every loop moves into the value, so the value bounds
// both, but a deep value (JSON allows 10,000 levels) or a schema applying two
// recursive subschemas to each part (the cost doubling per level) could still
// take gigabytes of stack or hang. And its error messages print the value
// checked and are wrapped again by every enclosing subschema, while anyOf
// keeps the errors of all its branches: a value nested 200 deep that fails a
// recursive "any JSON value" schema (anyOf string, number, object, array)
// allocates 230 MB of message text, growing with the cube of the depth.
//
// So before validating, costWalk follows the subschemas jsonschema-go would
// apply over the value, checking nothing but types (a wrong type stops
// jsonschema-go at once), and estimates the worst case: every branch taken,
// and every other check failing where a failure costs most. A value past one of these bounds is not checked.
const (
	// maxCheckDepth is nested subschema applications: 4 MB of validator
	// stack, and a few hundred levels of a value nested like a tree.
	maxCheckDepth = 1024
	// maxCheckSteps, plus checkStepsPerValue for each value in the instance,
	// bounds the subschemas applied in all: about a second of validation, or
	// more for a value big enough to need it.
	maxCheckSteps      = 1_000_000
	checkStepsPerValue = 16
	// maxCheckText, plus checkTextPerValue for each value, bounds the memory
	// jsonschema-go may take building error messages, in bytes. It builds
	// some for valid values too (the failing branches of an anyOf), about
	// 300 bytes a value for a long list of optional strings.
	maxCheckText      = 64 << 20
	checkTextPerValue = 1 << 10
)

// checkCost is the worst case of error text built checking one value
// against one subschema: if the check passes (the errors of branches that
// failed and were dropped), if it fails, and the message it then returns.
type checkCost struct{ pass, fail, text int64 }

// saturating addition: the estimates only need to say "too much".
func addCapped(a, b int64) int64 { return min(a+b, 1<<50) }

type costWalk struct {
	g            *schemaGraph
	steps, limit int
	deepest      int           // the most nested subschemas seen
	stack        []*schemaNode // the dynamic scope, as jsonschema-go keeps it
	printed      map[printKey]int64
	err          error
}

type printKey struct {
	p uintptr
	n int
}

// tooCostly reports a value that would take too deep a recursion, too many
// steps or too much memory to check, in words that follow "the value is".
func (g *schemaGraph) tooCostly(v any) error {
	values := countValues(v, maxCheckSteps)
	w := &costWalk{g: g, limit: maxCheckSteps + checkStepsPerValue*values, printed: map[printKey]int64{}}
	c := w.walk(reflect.ValueOf(v), g.root)
	if w.err == nil && c.fail > maxCheckText+checkTextPerValue*int64(values) {
		w.err = fmt.Errorf("too costly to check (its error messages could take %d MB)", c.fail>>20)
	}
	return w.err
}

// walk mirrors jsonschema-go's (*state).validate: the same subschemas in the
// same nesting, each keyword's errors kept or dropped as it keeps or drops
// them.
func (w *costWalk) walk(v reflect.Value, n *schemaNode) checkCost {
	if w.err != nil || n == nil {
		return checkCost{}
	}
	w.steps++
	switch {
	case len(w.stack) >= maxCheckDepth:
		w.err = fmt.Errorf("too deeply nested to check (more than %d subschemas deep)", maxCheckDepth)
		return checkCost{}
	case w.steps > w.limit:
		w.err = fmt.Errorf("too costly to check (more than %d subschema checks)", w.limit)
		return checkCost{}
	}
	w.stack = append(w.stack, n)
	w.deepest = max(w.deepest, len(w.stack))
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	s := n.s
	// A keyword's own failure prints the value and the schema's values.
	var t costTally
	t.text = addCapped(n.msgBytes, w.print(v))
	if n.ref != nil {
		t.first(w.walk(v, n.ref))
		if w.g.draft7 {
			return t.cost(n)
		}
	}
	if typeMismatch(s, v) {
		return t.cost(n) // jsonschema-go stops at the type check
	}
	if d := w.dynamicTarget(n); d != nil {
		t.first(w.walk(v, d))
	}
	for i := range s.AllOf {
		t.first(w.walk(v, n.kids[kidKey("allOf", strconv.Itoa(i))]))
	}
	if len(s.AnyOf) > 0 {
		// every branch is tried, and all their errors go into anyOf's
		var all checkCost
		all.text = int64(64 + 24*len(s.AnyOf))
		for i := range s.AnyOf {
			b := w.walk(v, n.kids[kidKey("anyOf", strconv.Itoa(i))])
			all.pass = addCapped(all.pass, b.fail)
			all.text = addCapped(all.text, b.text)
		}
		all.fail = addCapped(all.pass, all.text)
		t.first(all)
	}
	for i := range s.OneOf {
		t.dropped(w.walk(v, n.kids[kidKey("oneOf", strconv.Itoa(i))]))
	}
	if s.Not != nil {
		t.dropped(w.walk(v, n.kids["not"]))
	}
	if s.If != nil {
		t.dropped(w.walk(v, n.kids["if"]))
		// then or else, not both: count the dearer
		before := w.steps
		then := w.walk(v, n.kids["then"])
		thenSteps := w.steps - before
		w.steps = before
		other := w.walk(v, n.kids["else"])
		w.steps = before + max(thenSteps, w.steps-before)
		t.first(checkCost{max(then.pass, other.pass), max(then.fail, other.fail), max(then.text, other.text)})
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		w.items(v, n, &t)
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String {
			w.properties(v, n, &t)
		}
	}
	return t.cost(n)
}

// costTally adds up the subschemas applied at one node.
type costTally struct {
	pass  int64 // the subschemas' cost when all pass
	delta int64 // the most one failing subschema adds, validation stopping there
	text  int64 // the longest message the node may return
}

// first is a subschema whose error, if any, is the node's error.
func (t *costTally) first(c checkCost) {
	t.pass = addCapped(t.pass, c.pass)
	t.delta = max(t.delta, c.fail-c.pass)
	t.text = max(t.text, c.text)
}

// dropped is a subschema whose error is built and dropped.
func (t *costTally) dropped(c checkCost) {
	t.pass = addCapped(t.pass, max(c.pass, c.fail))
}

// cost is the node's: its message is its subschema's or its own, wrapped
// once more, and building it allocates about twice its length.
func (t *costTally) cost(n *schemaNode) checkCost {
	text := addCapped(t.text, int64(len("validating : ")+len(n.path)+len(n.s.ID)+len("root")))
	return checkCost{pass: t.pass, fail: addCapped(addCapped(t.pass, t.delta), 2*text), text: text}
}

// typeMismatch reports a value that fails the schema's "type", as
// jsonschema-go's jsonType and type check see it.
func typeMismatch(s *jsonschema.Schema, v reflect.Value) bool {
	if s.Type == "" && s.Types == nil {
		return false
	}
	var got string
	switch {
	case !v.IsValid():
		got = "null"
	case v.CanInt() || v.CanUint():
		got = "integer"
	case v.CanFloat():
		got = "number"
		if _, f := math.Modf(v.Float()); f == 0 {
			got = "integer"
		}
	case v.Kind() == reflect.Bool:
		got = "boolean"
	case v.Kind() == reflect.String:
		got = "string"
	case v.Kind() == reflect.Slice || v.Kind() == reflect.Array:
		got = "array"
	case v.Kind() == reflect.Map || v.Kind() == reflect.Struct:
		got = "object"
	default:
		return false
	}
	ok := func(want string) bool { return got == want || got == "integer" && want == "number" }
	if s.Type != "" {
		return !ok(s.Type)
	}
	return !slices.ContainsFunc(s.Types, ok)
}

// messageBytes is a generous size for a failure message of s's own
// keywords, which print the schema's enum, const or pattern.
func messageBytes(s *jsonschema.Schema) int64 {
	n := int64(128 + len(s.Pattern))
	for _, v := range []any{s.Enum, s.Const} {
		if b, err := json.Marshal(v); err == nil {
			n += 2 * int64(len(b))
		}
	}
	return n
}

// dynamicTarget finds a $dynamicRef's schema as jsonschema-go does: lexical,
// or the anchor in the base of the outermost schema on the stack that has it.
func (w *costWalk) dynamicTarget(n *schemaNode) *schemaNode {
	if n.dynRef != nil || n.dynAnchor == "" {
		return n.dynRef
	}
	for _, s := range w.stack {
		if a, ok := s.base.anchors[n.dynAnchor]; ok && a.dynamic {
			return a.n
		}
	}
	return nil
}

func (w *costWalk) items(v reflect.Value, n *schemaNode, t *costTally) {
	s, count := n.s, v.Len()
	// 2020-12: prefixItems, then items. draft-07: an items array, then
	// additionalItems; or one items schema for all.
	prefix, prefixKW := s.PrefixItems, "prefixItems"
	rest, restKW := s.Items, "items"
	if w.g.draft7 {
		prefix = nil
		if s.ItemsArray != nil {
			prefix, prefixKW = s.ItemsArray, "items"
			rest, restKW = s.AdditionalItems, "additionalItems"
		}
	}
	end := min(len(prefix), count)
	for i := range end {
		t.first(w.walk(v.Index(i), n.kids[kidKey(prefixKW, strconv.Itoa(i))]))
	}
	if rest != nil {
		for i := end; i < count; i++ {
			t.first(w.walk(v.Index(i), n.kids[restKW]))
		}
	}
	if s.Contains != nil {
		for i := range count {
			t.dropped(w.walk(v.Index(i), n.kids["contains"]))
		}
	}
	if s.UnevaluatedItems != nil && rest == nil {
		for i := end; i < count; i++ {
			t.first(w.walk(v.Index(i), n.kids["unevaluatedItems"]))
		}
	}
}

func (w *costWalk) properties(v reflect.Value, n *schemaNode, t *costTally) {
	s := n.s
	for it := v.MapRange(); it.Next(); {
		name, val := it.Key().String(), it.Value()
		evaluated := false
		if k := n.kids[kidKey("properties", name)]; k != nil {
			t.first(w.walk(val, k))
			evaluated = true
		}
		for _, p := range n.patterns {
			if p.re.MatchString(name) {
				t.first(w.walk(val, p.n))
				evaluated = true
			}
		}
		switch {
		case evaluated:
		case s.AdditionalProperties != nil:
			t.first(w.walk(val, n.kids["additionalProperties"]))
		case s.UnevaluatedProperties != nil:
			// applies unless a subschema evaluated the property: assume none did
			t.first(w.walk(val, n.kids["unevaluatedProperties"]))
		}
		if s.PropertyNames != nil {
			t.first(w.walk(reflect.ValueOf(name), n.kids["propertyNames"]))
		}
	}
	dep, deps := "dependentSchemas", s.DependentSchemas
	if w.g.draft7 {
		dep, deps = "dependencies", s.DependencySchemas
	}
	for name := range deps {
		if v.MapIndex(reflect.ValueOf(name).Convert(v.Type().Key())).IsValid() {
			t.first(w.walk(v, n.kids[kidKey(dep, name)]))
		}
	}
}

// print is about how long v is when a message prints it with %v. Each map
// and slice is measured once: the walk meets the same parts again and again.
func (w *costWalk) print(v reflect.Value) int64 { return w.printDepth(v, 0) }

func (w *costWalk) printDepth(v reflect.Value, depth int) int64 {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if depth > 10_000 { // deeper than JSON nests: a value that contains itself
		return 1 << 50
	}
	switch v.Kind() {
	case reflect.String:
		return int64(len(v.String())) + 2
	case reflect.Map, reflect.Slice:
		if v.Len() == 0 {
			return 6
		}
		k := printKey{uintptr(v.UnsafePointer()), v.Len()}
		if n, ok := w.printed[k]; ok {
			return n
		}
		n := int64(6)
		if v.Kind() == reflect.Map {
			for it := v.MapRange(); it.Next(); {
				n = addCapped(n, addCapped(int64(len(it.Key().String())+2), w.printDepth(it.Value(), depth+1)))
			}
		} else {
			for i := range v.Len() {
				n = addCapped(n, 1+w.printDepth(v.Index(i), depth+1))
			}
		}
		w.printed[k] = n
		return n
	}
	return 24
}

// countValues counts the values in v, nested ones included, up to limit. It
// keeps its own stack: v may nest deeper than is wise to recurse.
func countValues(v any, limit int) int {
	n := 0
	stack := []reflect.Value{reflect.ValueOf(v)}
	for len(stack) > 0 && n < limit {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		for x.Kind() == reflect.Pointer || x.Kind() == reflect.Interface {
			x = x.Elem()
		}
		switch x.Kind() {
		case reflect.Slice, reflect.Array:
			for i := range x.Len() {
				stack = append(stack, x.Index(i))
			}
		case reflect.Map:
			for it := x.MapRange(); it.Next(); {
				stack = append(stack, it.Value())
			}
		}
	}
	return n
}
