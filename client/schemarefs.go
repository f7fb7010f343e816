package client

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// How jsonschema-go resolves $id, $anchor, $dynamicAnchor, $ref and
// $dynamicRef (resolve.go and json_pointer.go of v0.4.3), redone on the
// schema graph so that the guard follows references exactly as the validator
// will.

// identify gives n its base URI and anchors, as jsonschema-go's resolveURIs
// does. n.base is its parent's base on entry.
func (g *schemaGraph) identify(n *schemaNode) error {
	s := n.s
	if s.ID != "" && !(g.draft7 && s.Ref != "") {
		id, err := url.Parse(s.ID)
		if err != nil {
			return err
		}
		switch {
		case id.Fragment != "" && !g.draft7:
			return fmt.Errorf("$id %s has a fragment", s.ID)
		case id.Fragment != "":
			// draft-07's plain-name fragment is an anchor
			if err := g.setAnchor(n.base, strings.TrimPrefix(s.ID, "#"), n, false); err != nil {
				return err
			}
		default:
			u := n.base.uri.ResolveReference(id)
			if !u.IsAbs() {
				return fmt.Errorf("$id %s is not an absolute URI", s.ID)
			}
			if other := g.uris[u.String()]; other != nil && other != n {
				return fmt.Errorf("$id %s is also the $id of %s", s.ID, pointerOrRoot(other.path))
			}
			n.uri = u
			n.base = n
			g.uris[u.String()] = n
		}
	}
	if !g.draft7 {
		if err := g.setAnchor(n.base, s.Anchor, n, false); err != nil {
			return err
		}
		if err := g.setAnchor(n.base, s.DynamicAnchor, n, true); err != nil {
			return err
		}
		if s.DynamicAnchor != "" {
			g.dynamic[s.DynamicAnchor] = append(g.dynamic[s.DynamicAnchor], n)
		}
	}
	return nil
}

func (g *schemaGraph) setAnchor(base *schemaNode, name string, n *schemaNode, dynamic bool) error {
	if name == "" {
		return nil
	}
	if _, dup := base.anchors[name]; dup {
		return fmt.Errorf("anchor %q is defined twice", name)
	}
	if base.anchors == nil {
		base.anchors = map[string]schemaAnchor{}
	}
	base.anchors[name] = schemaAnchor{n, dynamic}
	return nil
}

func (g *schemaGraph) resolveRefs(n *schemaNode) error {
	if n.s.Ref != "" {
		t, _, err := g.lookup(n, n.s.Ref)
		if err != nil {
			return fmt.Errorf("$ref at %s/$ref: %v", n.path, err)
		}
		n.ref = t
	}
	if n.s.DynamicRef != "" {
		t, frag, err := g.lookup(n, n.s.DynamicRef)
		if err != nil {
			return fmt.Errorf("$dynamicRef at %s/$dynamicRef: %v", n.path, err)
		}
		if frag != "" {
			n.dynAnchor = frag
		} else {
			n.dynRef = t
		}
	}
	return nil
}

// lookup finds what a reference from n refers to. dynamicAnchor is set when
// the reference names a $dynamicAnchor.
func (g *schemaGraph) lookup(n *schemaNode, ref string) (_ *schemaNode, dynamicAnchor string, _ error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, "", err
	}
	u = n.base.uri.ResolveReference(u)
	doc := *u
	doc.Fragment = ""
	t := g.uris[doc.String()]
	if t == nil {
		return nil, "", fmt.Errorf("%s is not part of this schema, and mcpsh fetches no schemas", ref)
	}
	frag := u.Fragment
	if frag != "" && !strings.HasPrefix(frag, "/") {
		a, ok := t.anchors[frag]
		if !ok {
			return nil, "", fmt.Errorf("no anchor %q", frag)
		}
		if a.dynamic {
			return a.n, frag, nil
		}
		return a.n, "", nil
	}
	t, err = t.pointer(frag)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", ref, err)
	}
	return t, "", nil
}

var pointerUnescaper = strings.NewReplacer("~0", "~", "~1", "/")

// pointer follows a JSON Pointer from n through subschema keywords only, as
// jsonschema-go's dereferenceJSONPointer does.
func (n *schemaNode) pointer(ptr string) (*schemaNode, error) {
	if ptr == "" {
		return n, nil
	}
	if ptr[0] != '/' {
		return nil, errors.New("not a JSON Pointer")
	}
	segs := strings.Split(ptr[1:], "/")
	for i := range segs {
		segs[i] = pointerUnescaper.Replace(segs[i])
	}
	for i := 0; i < len(segs); i++ {
		kw := segs[i]
		container := slices.Contains(listKeywords, kw) || slices.Contains(mapKeywords, kw) ||
			(kw == "items" && n.s.Items == nil)
		if !container {
			k := n.kids[kw]
			if k == nil {
				return nil, fmt.Errorf("no subschema %q", kw)
			}
			n = k
			continue
		}
		if i+1 == len(segs) {
			return nil, fmt.Errorf("%q holds schemas, it is not one", kw)
		}
		i++
		key := segs[i]
		if slices.Contains(listKeywords, kw) || kw == "items" {
			// as jsonschema-go reads an index: no leading zeros, else Atoi
			if len(key) > 1 && key[0] == '0' {
				return nil, fmt.Errorf("index %q has leading zeros", key)
			}
			j, err := strconv.Atoi(key)
			if err != nil {
				return nil, fmt.Errorf("index %q is not a number", key)
			}
			key = strconv.Itoa(j)
		}
		k := n.kids[kidKey(kw, key)]
		if k == nil {
			return nil, fmt.Errorf("no subschema %s/%s", kw, key)
		}
		n = k
	}
	return n, nil
}

// dynamicTargets are the schemas a $dynamicRef at n may validate against.
func (g *schemaGraph) dynamicTargets(n *schemaNode) []*schemaNode {
	switch {
	case n.dynRef != nil:
		return []*schemaNode{n.dynRef}
	case n.dynAnchor != "":
		return g.dynamic[n.dynAnchor]
	}
	return nil
}

func pointerOrRoot(path string) string { return "#" + path }
