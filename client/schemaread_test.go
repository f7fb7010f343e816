package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Schemas the guard refuses are read without following a single $ref, and
// their values go unchecked, saying so.
func TestReadSchemaRecursive(t *testing.T) {
	t.Parallel()
	for _, rs := range recursiveSchemas {
		var top map[string]any
		if err := json.Unmarshal([]byte(rs.schema), &top); err != nil {
			t.Fatal(err)
		}
		top["properties"] = map[string]any{"a": map[string]any{"$ref": "#"}, "b": map[string]any{"type": "integer"}}
		raw, _ := json.Marshal(top)
		sc := ReadSchema("demo", "requested", raw)
		if sc.CheckErr() == nil || !strings.Contains(sc.Notice(), "cannot be checked") {
			t.Errorf("%s: check error %v, notice %q", rs.name, sc.CheckErr(), sc.Notice())
		}
		if b := sc.Field("b"); b == nil || b.Input != InputInteger {
			t.Errorf("%s: the other field is still read: %+v", rs.name, b)
		}
		if _, err := sc.ParseArgs([]string{"a=1,2", "b=3"}); err != nil {
			t.Errorf("%s: %v", rs.name, err)
		}
		if err := sc.Validate(map[string]any{"a": 1}); err != nil {
			t.Errorf("%s: an unchecked schema blocked a value: %v", rs.name, err)
		}
	}
}

// Schemas that recurse by descending into the value pass the guard, and
// the reader follows their $refs: a target met again inside itself reads
// as any value, so reading ends.
func TestReadSchemaRecursionThatDescends(t *testing.T) {
	t.Parallel()
	sc := ReadSchema("demo", "input", json.RawMessage(`{"$defs":{"t":{"type":"array","items":{"$ref":"#/$defs/t"}}},
		"properties":{"a":{"$ref":"#/$defs/t"},"tree":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/properties/tree"}}}}}}`))
	if sc.CheckErr() != nil {
		t.Fatal(sc.CheckErr())
	}
	a := sc.Field("a")
	if a.Input != InputJSON || a.Items == nil || a.Items.Types != nil {
		t.Errorf("a = %+v", a)
	}
	if v, err := a.Parse("x,y"); err != nil || fmt.Sprint(v) != "[x y]" {
		t.Errorf("a=x,y gives %v, %v", v, err)
	}
	if tr := sc.Field("tree"); tr.Input != InputJSON {
		t.Errorf("tree = %+v", tr)
	}
}

// Targets shared along many paths are read once: without that, 2^30 reads.
func TestReadSchemaSharedRefsReadOnce(t *testing.T) {
	t.Parallel()
	const n = 30
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"a%d":{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/a%d"},{"$ref":"#/$defs/a%d"}]}}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"a%d":{"type":"integer"}`, n))
	raw := json.RawMessage(`{"$defs":{` + strings.Join(defs, ",") + `},"properties":{"x":{"$ref":"#/$defs/a0"}}}`)
	c, _, err := compile(raw, "the value")
	if err != nil {
		t.Fatalf("the guard refused it: %v", err)
	}
	r := newSchemaReader(raw, c)
	s := &Schema{}
	r.top(s)
	if read := maxSchemaNodes - r.left; read > 10*n {
		t.Errorf("read %d subschemas for %d definitions", read, n)
	}
	// An array of arrays of … integers, as deep as the reader goes.
	if v, err := s.Field("x").Parse("1"); err != nil || !strings.HasPrefix(fmt.Sprint(v), "[[[[[") || !strings.Contains(fmt.Sprint(v), "[1]") {
		t.Errorf("x=1 gives %v, %v", v, err)
	}
}

// Deep and large schemas are read within bounds: never deeper than
// maxReadDepth, never a schema over maxSchemaBytes.
func TestReadSchemaBounded(t *testing.T) {
	t.Parallel()
	deep := `{"properties":{"a":` + strings.Repeat(`{"anyOf":[{"type":"null"},`, 500) + `{"type":"integer"}` + strings.Repeat(`]}`, 500) + `}}`
	sc := ReadSchema("demo", "input", json.RawMessage(deep))
	if a := sc.Field("a"); a == nil || a.Types != nil || a.Input != InputJSON {
		t.Errorf("500 nested anyOf: %+v", a)
	}
	if v, err := sc.Field("a").Parse("3"); err != nil || v != "3" {
		t.Errorf("an unknown type takes the text: %v, %v", v, err)
	}

	items := `{"properties":{"a":` + strings.Repeat(`{"type":"array","items":`, 200) + `{"type":"integer"}` + strings.Repeat(`}`, 200) + `}}`
	depth := 0
	for f := ReadSchemaText(json.RawMessage(items)).Field("a"); f != nil; f = f.Items {
		depth++
	}
	if depth > maxReadDepth+1 {
		t.Errorf("read %d levels of items, more than %d", depth, maxReadDepth)
	}

	big := `{"properties":{"a":{"type":"string","description":"` + strings.Repeat("x", maxSchemaBytes) + `"}}}`
	if err := ReadSchemaText(json.RawMessage(big)).Err(); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("a schema over the limit: %v", err)
	}

	var props []string
	for i := range 20_000 {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"integer"}`, i))
	}
	wide := ReadSchemaText(json.RawMessage(`{"properties":{` + strings.Join(props, ",") + `}}`))
	if len(wide.Fields) != 20_000 || wide.Fields[19_999].Name != "p19999" || wide.Fields[19_999].Input != InputInteger {
		t.Errorf("20,000 properties: %d fields", len(wide.Fields))
	}
}
