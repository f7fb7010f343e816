package client

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
)

// A server's schemas are untrusted input to jsonschema-go, whose validator
// recurses once per subschema it applies. A schema that leads back to itself
// without moving into the value ({"$ref":"#"}, $defs a → b → a, allOf/anyOf/
// not around a self-reference) recurses until the Go stack overflows: a fatal
// error, not a panic, that also leaves the TUI's terminal raw. So a schema is
// checked here before anything validates against it, and one that fails is
// treated like a schema that does not compile: reported, and not used.
//
// The limits are far beyond any schema written for a tool (generated ones
// included) and far below what costs real memory or time.
const (
	// maxSchemaBytes bounds the text: jsonschema-go decodes every level of a
	// schema once per enclosing level, so its cost grows with size × depth.
	maxSchemaBytes = 1 << 20
	// maxSchemaJSONDepth bounds JSON nesting before decoding; each subschema
	// level takes two (a keyword's object or array, then the schema).
	maxSchemaJSONDepth = 2*maxSchemaDepth + 32
	// maxSchemaDepth bounds subschema nesting: hand-written and generated
	// schemas nest a few levels and put shared parts in $defs.
	maxSchemaDepth = 64
	// maxSchemaNodes bounds the subschemas in one schema.
	maxSchemaNodes = 100_000
	// maxSchemaWork bounds how many subschemas one value is checked against
	// (through $ref, allOf, anyOf, …) before descending into it. References
	// shared along several paths multiply: $defs a = allOf[b, b], b =
	// allOf[c, c], … doubles at each step, 2^30 checks of one value after 30
	// steps, which is a hang rather than a crash.
	maxSchemaWork = 10_000
)

// SchemaError is a tool's input or output schema that mcpsh cannot use: it
// does not parse or compile, or checking a value against it could recurse for
// ever or cost without bound. The tool stays usable; its arguments are sent
// unchecked (an input schema) or its results are not checked (an output
// schema).
type SchemaError struct {
	Tool   string // the tool's name, made safe for a terminal
	Which  string // "input" or "output"
	Reason string // what is wrong and where in the schema, made safe for a terminal
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("%s: %s schema: %s", e.Tool, e.Which, e.Reason)
}

// schemaTooBig checks a schema's text before it is decoded.
func schemaTooBig(raw []byte) error {
	if len(raw) > maxSchemaBytes {
		return fmt.Errorf("is %d bytes, more than the %d mcpsh checks", len(raw), maxSchemaBytes)
	}
	if jsonscan.NestsDeeper(raw, maxSchemaJSONDepth) {
		return fmt.Errorf("nests JSON more than %d levels deep", maxSchemaJSONDepth)
	}
	return nil
}

const (
	loopUnseen = iota
	loopOnPath
	loopDone
)

// checkLoops finds a chain of subschemas applied to the same value that leads
// back to where it started, and counts the subschemas each node applies to one
// value. noun names the value in messages ("the arguments").
//
// Only keywords that apply a subschema to the value itself form such a chain;
// properties, items and the like move into a part of the value, and a value
// has only so many levels, so a schema that recurses through them (a tree:
// children → items → $ref "#") ends where the value does.
func (g *schemaGraph) checkLoops(noun string) error {
	type frame struct {
		n    *schemaNode
		next []schemaEdge
	}
	for _, start := range g.order {
		if start.state != loopUnseen {
			continue
		}
		start.state = loopOnPath
		stack := []frame{{start, g.sameValue(start)}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if len(f.next) > 0 {
				e := f.next[0]
				f.next = f.next[1:]
				switch e.to.state {
				case loopOnPath:
					return fmt.Errorf("%s at %s leads back to %s without descending into %s: recursive schemas like this cannot be checked",
						e.via, e.at, pointerOrRoot(e.to.path), noun)
				case loopUnseen:
					e.to.state = loopOnPath
					stack = append(stack, frame{e.to, g.sameValue(e.to)})
				}
				continue
			}
			f.n.state = loopDone
			f.n.work = g.workAt(f.n)
			if f.n.work > maxSchemaWork {
				return fmt.Errorf("%s checks one value against more than %d subschemas (through $ref, allOf, anyOf and the like): too costly to check",
					pointerOrRoot(f.n.path), maxSchemaWork)
			}
			stack = stack[:len(stack)-1]
		}
	}
	return nil
}

// schemaEdge is a subschema applied to the same value as the schema it leaves.
type schemaEdge struct {
	to      *schemaNode
	via, at string // the keyword, and where it is
}

// sameValue lists the subschemas jsonschema-go applies to the value a node
// is applied to, in the order it applies them.
func (g *schemaGraph) sameValue(n *schemaNode) []schemaEdge {
	var out []schemaEdge
	if n.ref != nil {
		out = append(out, schemaEdge{n.ref, "$ref", n.path + "/$ref"})
		if g.draft7 {
			return out // draft-07: a $ref's siblings are ignored
		}
	}
	for _, t := range g.dynamicTargets(n) {
		out = append(out, schemaEdge{t, "$dynamicRef", n.path + "/$dynamicRef"})
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		for i := range subschemaList(n.s, kw) {
			k := n.kids[kidKey(kw, strconv.Itoa(i))]
			out = append(out, schemaEdge{k, kw, k.path})
		}
	}
	conds := []string{"not"}
	if n.s.If != nil {
		conds = append(conds, "if", "then", "else") // then and else mean nothing without if
	}
	for _, kw := range conds {
		if k := n.kids[kw]; k != nil {
			out = append(out, schemaEdge{k, kw, k.path})
		}
	}
	dep := "dependentSchemas"
	if g.draft7 {
		dep = "dependencies"
	}
	for _, key := range slices.Sorted(maps.Keys(schemaMap(n.s, dep))) {
		if k := n.kids[kidKey(dep, key)]; k != nil {
			out = append(out, schemaEdge{k, dep, k.path})
		}
	}
	return out
}

// workAt counts the subschemas applied to one value from n, n included,
// assuming every branch is taken (then and else are alternatives, as are the
// targets of a dynamic reference). Its same-value subschemas are counted
// already. The count is capped just past maxSchemaWork.
func (g *schemaGraph) workAt(n *schemaNode) int {
	w := 1
	var branch, dynamic int
	for _, e := range g.sameValue(n) {
		switch e.via {
		case "then", "else":
			branch = max(branch, e.to.work)
		case "$dynamicRef":
			dynamic = max(dynamic, e.to.work)
		default:
			w += e.to.work
		}
		if w > maxSchemaWork {
			return maxSchemaWork + 1
		}
	}
	return min(w+branch+dynamic, maxSchemaWork+1)
}
