package client

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaGraph is a schema as jsonschema-go's validator walks it: each
// subschema a node, with the $ref and $dynamicRef targets resolved the way
// jsonschema-go resolves them. The library keeps its own resolution private,
// so this mirrors it (resolve.go and json_pointer.go of v0.4.3); anything it
// cannot mirror exactly (a duplicate $id or anchor, say) is refused rather
// than guessed, since a wrong guess could hide a loop.
type schemaGraph struct {
	root   *schemaNode
	nodes  map[*jsonschema.Schema]*schemaNode
	order  []*schemaNode // root first, then each node before its subschemas
	draft7 bool          // jsonschema-go's draft-07 rules ($ref hides its siblings)
	uris   map[string]*schemaNode
	// dynamic lists the schemas with each $dynamicAnchor: a dynamic reference
	// may land on any of them, depending on the path that led to it.
	dynamic map[string][]*schemaNode
}

type schemaNode struct {
	s     *jsonschema.Schema
	path  string // JSON Pointer from the root, as jsonschema-go writes it ("" is the root)
	depth int
	kids  map[string]*schemaNode // by keyword, or keyword + "\x00" + property name or index

	base    *schemaNode             // the schema whose URI relative references resolve against
	uri     *url.URL                // bases only
	anchors map[string]schemaAnchor // bases only

	ref       *schemaNode // $ref target
	dynRef    *schemaNode // $dynamicRef target, when it acts like $ref
	dynAnchor string      // $dynamicRef's anchor, when it is looked up at validation time
	patterns  []schemaPattern

	state    uint8 // for the cycle search
	work     int   // subschemas applied to one value from here, capped
	msgBytes int64 // see messageBytes; the graph is read-only once built
}

type schemaAnchor struct {
	n       *schemaNode
	dynamic bool
}

type schemaPattern struct {
	re *regexp.Regexp
	n  *schemaNode
}

// subschema keywords by how they hold their schemas. These are all the
// schema-valued fields of jsonschema.Schema (a test keeps the list complete).
var (
	singleKeywords = []string{"additionalItems", "additionalProperties", "contains", "contentSchema",
		"else", "if", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"}
	listKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	mapKeywords  = []string{"$defs", "definitions", "dependencies", "dependentSchemas", "patternProperties", "properties"}
)

func subschemaAt(s *jsonschema.Schema, kw string) *jsonschema.Schema {
	switch kw {
	case "additionalItems":
		return s.AdditionalItems
	case "additionalProperties":
		return s.AdditionalProperties
	case "contains":
		return s.Contains
	case "contentSchema":
		return s.ContentSchema
	case "else":
		return s.Else
	case "if":
		return s.If
	case "items":
		return s.Items
	case "not":
		return s.Not
	case "propertyNames":
		return s.PropertyNames
	case "then":
		return s.Then
	case "unevaluatedItems":
		return s.UnevaluatedItems
	case "unevaluatedProperties":
		return s.UnevaluatedProperties
	}
	return nil
}

func subschemaList(s *jsonschema.Schema, kw string) []*jsonschema.Schema {
	switch kw {
	case "allOf":
		return s.AllOf
	case "anyOf":
		return s.AnyOf
	case "oneOf":
		return s.OneOf
	case "prefixItems":
		return s.PrefixItems
	case "items":
		return s.ItemsArray
	}
	return nil
}

func schemaMap(s *jsonschema.Schema, kw string) map[string]*jsonschema.Schema {
	switch kw {
	case "$defs":
		return s.Defs
	case "definitions":
		return s.Definitions
	case "dependencies":
		return s.DependencySchemas
	case "dependentSchemas":
		return s.DependentSchemas
	case "patternProperties":
		return s.PatternProperties
	case "properties":
		return s.Properties
	}
	return nil
}

// eachSubschema calls f for every subschema of s, with the keyword and, in a
// list or map, the index or name.
func eachSubschema(s *jsonschema.Schema, f func(kw, key string, c *jsonschema.Schema)) {
	for _, kw := range singleKeywords {
		if c := subschemaAt(s, kw); c != nil {
			f(kw, "", c)
		}
	}
	if s.Items != nil {
		f("items", "", s.Items)
	}
	for _, kw := range slices.Concat(listKeywords, []string{"items"}) {
		for i, c := range subschemaList(s, kw) {
			f(kw, strconv.Itoa(i), c)
		}
	}
	for _, kw := range mapKeywords {
		m := schemaMap(s, kw)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			f(kw, k, m[k])
		}
	}
}

func kidKey(kw, key string) string {
	if key == "" {
		return kw
	}
	return kw + "\x00" + key
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// newSchemaGraph builds the graph of a schema that jsonschema-go has resolved.
// It stops at the first subschema nested deeper than maxSchemaDepth or past
// maxSchemaNodes subschemas, before doing any work that grows with either.
func newSchemaGraph(root *jsonschema.Schema) (*schemaGraph, error) {
	g := &schemaGraph{
		nodes:   map[*jsonschema.Schema]*schemaNode{},
		uris:    map[string]*schemaNode{},
		dynamic: map[string][]*schemaNode{},
		draft7:  root.Schema == draft7URI || root.Schema == "https://json-schema.org/draft-07/schema#",
	}
	g.root = &schemaNode{s: root, uri: &url.URL{}}
	g.root.base = g.root
	g.uris[""] = g.root
	stack := []*schemaNode{g.root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(g.nodes) >= maxSchemaNodes {
			return nil, fmt.Errorf("has more than %d subschemas", maxSchemaNodes)
		}
		if _, seen := g.nodes[n.s]; seen {
			return nil, fmt.Errorf("%s appears twice in the schema tree", pointerOrRoot(n.path))
		}
		g.nodes[n.s] = n
		g.order = append(g.order, n)
		n.msgBytes = messageBytes(n.s)
		if err := g.identify(n); err != nil {
			return nil, fmt.Errorf("at %s: %v", pointerOrRoot(n.path), err)
		}
		var kids []*schemaNode
		eachSubschema(n.s, func(kw, key string, c *jsonschema.Schema) {
			if c == nil {
				return // jsonschema-go refused it already
			}
			p := n.path + "/" + kw
			if key != "" {
				p += "/" + pointerEscaper.Replace(key)
			}
			k := &schemaNode{s: c, path: p, depth: n.depth + 1, base: n.base}
			if n.kids == nil {
				n.kids = map[string]*schemaNode{}
			}
			n.kids[kidKey(kw, key)] = k
			if kw == "patternProperties" {
				if re, err := regexp.Compile(key); err == nil {
					n.patterns = append(n.patterns, schemaPattern{re, k})
				}
			}
			kids = append(kids, k)
		})
		if len(kids) > 0 && n.depth+1 > maxSchemaDepth {
			return nil, fmt.Errorf("nests subschemas more than %d deep (at %s)", maxSchemaDepth, n.path)
		}
		for _, k := range slices.Backward(kids) {
			stack = append(stack, k)
		}
	}
	for _, n := range g.order {
		if err := g.resolveRefs(n); err != nil {
			return nil, err
		}
	}
	return g, nil
}
