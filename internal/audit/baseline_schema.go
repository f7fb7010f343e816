package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
)

// What counts as a breaking schema change. For the input, the server
// refuses what a caller sent before: a new required argument, a type,
// enum or range narrowed, arguments it does not name refused. For the
// output, a caller reads what the server no longer promises: a field no
// longer required, a type widened. Only properties are followed ($ref is
// not: the server's schema may be recursive), to a bounded depth and number
// of nodes, so a huge or hostile schema costs a bounded walk.

const (
	schemaDepth = 16
	schemaNodes = 20000
)

type schemaWalk struct {
	nodes  int
	breaks []string
	output bool
}

func inputBreaks(old, now json.RawMessage) []string  { return schemaBreaks(old, now, false) }
func outputBreaks(old, now json.RawMessage) []string { return schemaBreaks(old, now, true) }

func schemaBreaks(old, now json.RawMessage, output bool) []string {
	o, n := decodeSchema(old), decodeSchema(now)
	if o == nil && n == nil {
		return nil
	}
	w := &schemaWalk{output: output}
	if output && o != nil && n == nil {
		return []string{"the tool no longer declares an output schema: its structured result is no longer promised"}
	}
	if o == nil {
		o = map[string]any{}
	}
	if n == nil {
		n = map[string]any{}
	}
	w.compare("", o, n, 0)
	return w.breaks
}

func decodeSchema(raw json.RawMessage) map[string]any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return nil
	}
	return m
}

func (w *schemaWalk) say(path, format string, a ...any) {
	where := "the arguments"
	if w.output {
		where = "the result"
	}
	if path != "" {
		where = path
	}
	w.breaks = append(w.breaks, where+": "+fmt.Sprintf(format, a...))
}

func (w *schemaWalk) compare(path string, o, n map[string]any, depth int) {
	w.nodes++
	if depth > schemaDepth || w.nodes > schemaNodes {
		return
	}
	if path != "" || w.output { // the arguments are an object whatever the schema says
		w.types(path, o, n)
	}
	if !w.output {
		w.enum(path, o, n)
		w.bounds(path, o, n)
	}
	oReq, nReq := stringSet(o["required"]), stringSet(n["required"])
	oProps, _ := o["properties"].(map[string]any)
	nProps, _ := n["properties"].(map[string]any)
	if w.output {
		for _, name := range sortedKeys(oReq) {
			if !nReq[name] {
				w.say(join(path, name), "no longer required: a caller that reads it may not find it")
			}
		}
	} else {
		for _, name := range sortedKeys(nReq) {
			if !oReq[name] {
				w.say(join(path, name), "now required: callers that leave it out are refused")
			}
		}
		if closedNow, closedBefore := n["additionalProperties"] == false, o["additionalProperties"] == false; closedNow {
			if !closedBefore && (len(nProps) > 0 || len(oProps) > 0) {
				w.say(path, "arguments it does not name are now refused (additionalProperties: false)")
			}
			for _, name := range sortedKeys(oProps) {
				if _, ok := nProps[name]; !ok {
					w.say(join(path, name), "removed, and arguments it does not name are refused")
				}
			}
		}
	}
	for _, name := range sortedKeys(oProps) {
		op, ok1 := oProps[name].(map[string]any)
		np, ok2 := nProps[name].(map[string]any)
		if ok1 && ok2 {
			w.compare(join(path, name), op, np, depth+1)
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// types: the input narrowed when a type it took is no longer taken; the
// output widened when it may now be a type it was not. No "type" takes any.
func (w *schemaWalk) types(path string, o, n map[string]any) {
	ot, nt := typeSet(o["type"]), typeSet(n["type"])
	from, to := ot, nt
	if w.output {
		from, to = nt, ot
	}
	if to == nil {
		return
	}
	if from == nil {
		if w.output {
			w.say(path, "its type is no longer given (was %s): it may now be anything", typeList(to))
		} else {
			w.say(path, "now only %s (it took any type)", typeList(to))
		}
		return
	}
	for _, t := range sortedKeys(from) {
		if !takes(to, t) {
			if w.output {
				w.say(path, "may now be %s (was %s)", t, typeList(to))
			} else {
				w.say(path, "no longer takes %s (now %s)", t, typeList(to))
			}
		}
	}
}

func takes(set map[string]bool, t string) bool {
	return set[t] || t == "integer" && set["number"]
}

func typeSet(v any) map[string]bool {
	switch t := v.(type) {
	case string:
		return map[string]bool{t: true}
	case []any:
		s := stringSet(t)
		if len(s) == 0 {
			return nil
		}
		return s
	}
	return nil
}

func typeList(s map[string]bool) string {
	keys := sortedKeys(s)
	if len(keys) == 1 {
		return keys[0]
	}
	return fmt.Sprint(keys)
}

func (w *schemaWalk) enum(path string, o, n map[string]any) {
	ne, ok := n["enum"].([]any)
	if !ok {
		return
	}
	now := map[string]bool{}
	for _, v := range ne {
		b, _ := json.Marshal(v)
		now[string(b)] = true
	}
	oe, ok := o["enum"].([]any)
	if !ok {
		w.say(path, "now limited to %d values (it took any)", len(ne))
		return
	}
	var lost []string
	for _, v := range oe {
		b, _ := json.Marshal(v)
		if !now[string(b)] {
			lost = append(lost, string(b))
		}
	}
	if len(lost) > 0 {
		w.say(path, "no longer takes %s", joinCut(lost, 5))
	}
}

func joinCut(s []string, n int) string {
	if len(s) <= n {
		return fmt.Sprint(s)
	}
	return fmt.Sprintf("%v and %d more", s[:n], len(s)-n)
}

// bounds: a lower bound raised or added, an upper bound lowered or added.
func (w *schemaWalk) bounds(path string, o, n map[string]any) {
	for _, k := range []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"} {
		if nv, ok := number(n[k]); ok {
			if ov, had := number(o[k]); !had || nv.Cmp(ov) > 0 {
				w.say(path, "%s is now %s%s", k, nv.String(), was(ov, had))
			}
		}
	}
	for _, k := range []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"} {
		if nv, ok := number(n[k]); ok {
			if ov, had := number(o[k]); !had || nv.Cmp(ov) < 0 {
				w.say(path, "%s is now %s%s", k, nv.String(), was(ov, had))
			}
		}
	}
	if np, ok := n["pattern"].(string); ok {
		if op, _ := o["pattern"].(string); op != np {
			w.say(path, "pattern is now %q", clipString(np, 60))
		}
	}
}

func was(v *big.Float, had bool) string {
	if !had {
		return " (it had none)"
	}
	return " (was " + v.String() + ")"
}

func number(v any) (*big.Float, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	f, _, err := big.ParseFloat(string(n), 10, 128, big.ToNearestEven)
	return f, err == nil
}

func clipString(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func stringSet(v any) map[string]bool {
	list, _ := v.([]any)
	out := map[string]bool{}
	for _, x := range list {
		if s, ok := x.(string); ok {
			out[s] = true
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return slices.Clip(keys)
}
