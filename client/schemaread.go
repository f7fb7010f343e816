package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The reader is lenient: a keyword of the wrong shape is ignored, never the
// whole schema (one odd property must not leave every other untyped). It is
// also bounded, since schemas may be hostile: it reads no schema over
// maxSchemaBytes, goes at most maxReadDepth subschemas deep, reads each
// $ref target once (a target that contains itself reads as "any value"
// inside), and reads at most maxSchemaNodes subschemas in all.
const maxReadDepth = maxSchemaDepth

// $refs are followed only when the schema passed the guard (schemaguard.go):
// its graph says where each one leads exactly as jsonschema-go resolves it
// ($id, anchors, draft), and that its targets exist. Otherwise a $ref is left
// alone and its field is entered as JSON. pydantic writes every enum and
// nested model as a $ref into $defs, so not following them would lose the
// typing of most FastMCP tools.
type schemaReader struct {
	root   json.RawMessage
	refs   map[string]string // the path of a subschema with a $ref → its target's path
	draft7 bool              // a $ref's siblings are ignored
	objs   map[string]map[string]json.RawMessage
	lists  map[string][]json.RawMessage
	memo   map[string]*Field // $ref targets read; nil while being read
	left   int
}

// compoundKeywords at the top of a schema are rules about the object as a
// whole that a form of one input per property cannot express.
var compoundKeywords = []string{"anyOf", "oneOf", "allOf", "$ref", "not", "if", "patternProperties", "dependentSchemas"}

func readSchema(raw json.RawMessage, c *checkedSchema) *Schema {
	s := &Schema{}
	if isNull(raw) {
		return s
	}
	if len(raw) > maxSchemaBytes {
		s.err = fmt.Errorf("schema is %d bytes, more than the %d mcpsh reads", len(raw), maxSchemaBytes)
		return s
	}
	newSchemaReader(raw, c).top(s)
	return s
}

func newSchemaReader(raw json.RawMessage, c *checkedSchema) *schemaReader {
	r := &schemaReader{root: raw, left: maxSchemaNodes, memo: map[string]*Field{},
		objs: map[string]map[string]json.RawMessage{}, lists: map[string][]json.RawMessage{}}
	if c != nil {
		r.draft7, r.refs = c.g.draft7, map[string]string{}
		for _, n := range c.g.order {
			if n.ref != nil {
				r.refs[n.path] = n.ref.path
			}
		}
	}
	return r
}

// top reads the object schema's own words and its properties.
func (r *schemaReader) top(s *Schema) {
	p, ok := decodeObject(r.root)
	if !ok {
		s.err = fmt.Errorf("schema is %s, not a JSON object", rawKind(r.root))
		return
	}
	// zod-to-json-schema names the root ({"$ref":"#/definitions/x", …}): a
	// schema with no properties of its own that leads to one schema is read
	// as that schema. The keyword it was led by is no rule about the whole.
	path := ""
	var whole []string
	for hops := 0; ; hops++ {
		_, props := p["properties"]
		_, req := p["required"]
		next, nextPath, kw := r.lead(p, path)
		q, ok := decodeObject(next)
		if props || req || kw == "" || !ok || hops == maxReadDepth {
			whole = append(whole, wholeRules(p, "")...)
			break
		}
		whole = append(whole, wholeRules(p, kw)...)
		p, path = q, nextPath
	}
	s.Whole = strings.Join(addNew(nil, whole...), ", ")
	_ = json.Unmarshal(p["title"], &s.Title)
	_ = json.Unmarshal(p["description"], &s.Description)
	props := p["properties"]
	if isNull(props) {
		return
	}
	names, raws, err := orderedObject(props)
	if err != nil {
		s.err = fmt.Errorf("schema properties are %s, not an object", rawKind(props))
		return
	}
	required := map[string]bool{}
	var req []any
	if json.Unmarshal(p["required"], &req) == nil {
		for _, n := range req {
			if n, ok := n.(string); ok {
				required[n] = true
			}
		}
	}
	for i, name := range names {
		f := r.field(raws[i], path+"/properties/"+pointerEscaper.Replace(name), 1)
		f.Name, f.Required = name, required[name]
		s.Fields = append(s.Fields, f)
	}
}

// lead is the one schema p stands for: its followed $ref, or its only allOf
// branch. kw is the keyword, or "" when there is none.
func (r *schemaReader) lead(p map[string]json.RawMessage, path string) (json.RawMessage, string, string) {
	if _, ok := p["$ref"]; ok {
		if t, ok := r.refs[path]; ok {
			raw, _ := r.at(t)
			return raw, t, "$ref"
		}
		return nil, "", ""
	}
	if l := r.list(path+"/allOf", p["allOf"]); len(l) == 1 {
		return l[0], path + "/allOf/0", "allOf"
	}
	return nil, "", ""
}

func wholeRules(p map[string]json.RawMessage, except string) []string {
	var out []string
	for _, k := range compoundKeywords {
		if _, ok := p[k]; ok && k != except {
			out = append(out, k)
		}
	}
	if ap := bytes.TrimSpace(p["additionalProperties"]); len(ap) > 0 && ap[0] == '{' {
		out = append(out, "additionalProperties")
	}
	return out
}

// field reads one property's schema (or a branch, items, or a $ref target)
// at path, depth subschemas below the top.
func (r *schemaReader) field(raw json.RawMessage, path string, depth int) *Field {
	if depth > maxReadDepth || r.left <= 0 {
		return anyValue()
	}
	r.left--
	p, ok := decodeObject(raw)
	if !ok {
		return anyValue() // true, false, or not a schema: any value as far as typing goes
	}
	f := &Field{}
	if _, ok := p["$ref"]; ok {
		if t, ok := r.refs[path]; ok {
			*f = *r.target(t, depth+1)
			if r.draft7 {
				f.readNotes(p) // draft-07 ignores a $ref's siblings but for the words meant for people
				return f
			}
		}
	}
	for i, b := range r.list(path+"/allOf", p["allOf"]) {
		f.fill(r.field(b, path+"/allOf/"+strconv.Itoa(i), depth+1))
	}
	f.readOwn(r, p, path, depth)
	var branches []*Field
	for _, kw := range []string{"anyOf", "oneOf"} {
		for i, b := range r.list(path+"/"+kw, p[kw]) {
			branches = append(branches, r.field(b, path+"/"+kw+"/"+strconv.Itoa(i), depth+1))
		}
	}
	f.union(branches)
	f.Input = f.classify()
	return f
}

// anyValue is a field whose schema says nothing mcpsh reads.
func anyValue() *Field { return &Field{Input: InputJSON} }

// target reads a $ref's target once; callers copy what it returns.
func (r *schemaReader) target(path string, depth int) *Field {
	if f, seen := r.memo[path]; seen {
		if f == nil {
			return anyValue() // it contains itself: inside, any value
		}
		return f
	}
	raw, ok := r.at(path)
	if !ok {
		return anyValue()
	}
	r.memo[path] = nil
	f := r.field(raw, path, depth)
	r.memo[path] = f
	return f
}

// at finds the subschema at a JSON Pointer the guard wrote, decoding each
// container on the way once.
func (r *schemaReader) at(path string) (json.RawMessage, bool) {
	cur, prefix := r.root, ""
	if path == "" {
		return cur, true
	}
	for _, seg := range strings.Split(path, "/")[1:] {
		key := pointerUnescaper.Replace(seg)
		switch t := bytes.TrimSpace(cur); {
		case len(t) > 0 && t[0] == '{':
			obj, ok := r.objs[prefix]
			if !ok {
				obj, _ = decodeObject(cur)
				r.objs[prefix] = obj
			}
			cur = obj[key]
		case len(t) > 0 && t[0] == '[':
			i, err := strconv.Atoi(key)
			l := r.list(prefix, cur)
			if err != nil || i < 0 || i >= len(l) {
				return nil, false
			}
			cur = l[i]
		default:
			return nil, false
		}
		if cur == nil {
			return nil, false
		}
		prefix += "/" + seg
	}
	return cur, true
}

// list decodes a JSON array of subschemas at path once; anything else is none.
func (r *schemaReader) list(path string, raw json.RawMessage) []json.RawMessage {
	if isNull(raw) {
		return nil
	}
	if l, ok := r.lists[path]; ok {
		return l
	}
	var l []json.RawMessage
	_ = json.Unmarshal(raw, &l)
	r.lists[path] = l
	return l
}

func decodeObject(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var p map[string]json.RawMessage
	if json.Unmarshal(raw, &p) != nil || p == nil {
		return nil, false
	}
	return p, true
}

// orderedObject returns an object's keys in text order with their values. A
// key given twice keeps its first place and its last value, as json.Unmarshal
// (and so jsonschema-go) keeps the last.
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
		name, _ := tok.(string)
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

// rawKind names the kind of a JSON text for messages.
func rawKind(raw json.RawMessage) string {
	s := bytes.TrimSpace(raw)
	switch {
	case len(s) == 0:
		return "empty"
	case !json.Valid(s):
		return "not valid JSON"
	}
	var v any
	_ = json.Unmarshal(s, &v)
	if _, ok := v.(map[string]any); ok {
		return "an object"
	}
	return jsonKind(v)
}

// addNew appends to a fresh copy of s the xs it lacks; s may be shared
// with a $ref's target, so it is never appended to in place.
func addNew(s []string, xs ...string) []string {
	out := slices.Clone(s)
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
