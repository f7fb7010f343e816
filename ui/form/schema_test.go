package form

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSchemaParseFieldsOrderAndKinds(t *testing.T) {
	schema := `{
		"type": "object",
		"properties": {
			"zeta":   {"type": "string", "description": "last letter, first field", "minLength": 1},
			"alpha":  {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
			"mode":   {"type": "string", "enum": ["fast", "slow"]},
			"flag":   {"type": "boolean"},
			"ratio":  {"type": ["number", "null"], "exclusiveMinimum": 0},
			"tags":   {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true},
			"nums":   {"type": "array", "items": {"type": "integer"}},
			"filter": {"type": "object", "properties": {"limit": {"type": "integer"}}},
			"rows":   {"type": "array", "items": {"type": "object"}},
			"either": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null},
			"email":  {"type": "string", "format": "email", "pattern": "^a"},
			"loose":  {},
			"yes":    true,
			"level":  {"const": 3},
			"untyped_array": {"type": "array"}
		},
		"required": ["alpha", "flag", 7, "missing"]
	}`
	fields, err := ParseFields(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Name, Label, Constraints string
		Kind                     fieldKind
		Required                 bool
	}
	var got []row
	for _, f := range fields {
		got = append(got, row{f.Name, f.TypeLabel(), f.Constraints, f.Kind, f.Required})
	}
	want := []row{
		{"zeta", "string", "min length 1", kindString, false},
		{"alpha", "integer", "1–50", kindInteger, true},
		{"mode", "string enum", "", kindEnum, false},
		{"flag", "boolean", "", kindBoolean, true},
		{"ratio", "number | null", "> 0", kindNumber, false},
		{"tags", "array of string", "at least 1 item, unique items", kindArray, false},
		{"nums", "array of integer", "", kindArray, false},
		{"filter", "object (JSON)", "", kindJSON, false},
		{"rows", "array of object (JSON)", "", kindJSON, false},
		{"either", "string | null", "", kindString, false}, // pydantic's Optional[str]: typed like type ["string","null"]
		{"email", "string", "format email, pattern ^a", kindString, false},
		{"loose", "any (JSON)", "", kindJSON, false},
		{"yes", "any (JSON)", "", kindJSON, false},
		{"level", "enum", "", kindEnum, false},
		{"untyped_array", "array", "", kindArray, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}

	byName := map[string]FieldSpec{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	if a := byName["alpha"]; !a.HasDefault || a.Default != float64(10) {
		t.Errorf("alpha default = %v (has %v), want 10", a.Default, a.HasDefault)
	}
	if e := byName["either"]; !e.HasDefault || e.Default != nil {
		t.Errorf("either: a null default is still a default: %+v", e)
	}
	if z := byName["zeta"]; z.HasDefault || z.Description != "last letter, first field" {
		t.Errorf("zeta = %+v", z)
	}
	if diff := cmp.Diff([]any{"fast", "slow"}, byName["mode"].Enum); diff != "" {
		t.Errorf("mode enum: %s", diff)
	}
	if diff := cmp.Diff([]any{float64(3)}, byName["level"].Enum); diff != "" {
		t.Errorf("const is a one-value enum: %s", diff)
	}
	if diff := cmp.Diff([]string{"integer"}, byName["nums"].ItemTypes); diff != "" {
		t.Errorf("nums item types: %s", diff)
	}
	if diff := cmp.Diff([]string{"number", "null"}, byName["ratio"].Types); diff != "" {
		t.Errorf("ratio types: %s", diff)
	}
}

func TestSchemaConstraints(t *testing.T) {
	for _, tc := range []struct{ prop, want string }{
		{`{"type":"integer","minimum":1}`, "≥ 1"},
		{`{"type":"integer","maximum":9}`, "≤ 9"},
		{`{"type":"number","minimum":0,"maximum":1.5}`, "0–1.5"},
		{`{"type":"number","exclusiveMinimum":0,"maximum":1}`, "> 0, ≤ 1"},
		{`{"type":"number","minimum":0,"exclusiveMinimum":true}`, "> 0"}, // draft-04
		{`{"type":"integer","multipleOf":5}`, "multiple of 5"},
		{`{"type":"string","minLength":1,"maxLength":50}`, "length 1–50"},
		{`{"type":"string","maxLength":50}`, "max length 50"},
		{`{"type":"array","items":{"type":"string","enum":["a","b"]},"maxItems":3}`, "at most 3 items, items one of a, b"},
		{`{"type":"string","minimum":"x"}`, ""}, // not a number: ignored
	} {
		fields, err := ParseFields(json.RawMessage(`{"properties":{"p":` + tc.prop + `}}`))
		if err != nil || len(fields) != 1 {
			t.Fatalf("%s: %v %v", tc.prop, fields, err)
		}
		if got := fields[0].Constraints; got != tc.want {
			t.Errorf("%s: constraints %q, want %q", tc.prop, got, tc.want)
		}
	}
}

func TestSchemaParseFieldsTotal(t *testing.T) {
	for _, tc := range []struct {
		schema  string
		fields  int
		wantErr bool
	}{
		{``, 0, false},
		{`null`, 0, false},
		{`{}`, 0, false},
		{`{"type":"object"}`, 0, false},
		{`{"properties":null}`, 0, false},
		{`{"properties":{}}`, 0, false},
		{`[]`, 0, true},
		{`"object"`, 0, true},
		{`true`, 0, true},
		{`5`, 0, true},
		{`{`, 0, true},
		{`{"properties":5}`, 0, true},
		{`{"properties":[]}`, 0, true},
		{`{"properties":"x"}`, 0, true},
		{`{"properties":{"a":5,"b":null,"c":[],"d":"x"}}`, 4, false},
		{`{"properties":{"a":{"type":5,"enum":"x","items":7,"anyOf":3,"default":{}}}}`, 1, false},
		{`{"properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`, 1, false},
		{`{"properties":{"a":{"type":"string"},"a":{"type":"integer"}},"required":"a"}`, 1, false},
	} {
		fields, err := ParseFields(json.RawMessage(tc.schema))
		if (err != nil) != tc.wantErr || len(fields) != tc.fields {
			t.Errorf("ParseFields(%s) = %d fields, %v; want %d fields, error %v", tc.schema, len(fields), err, tc.fields, tc.wantErr)
		}
		for _, f := range fields {
			_ = f.TypeLabel() // never panics
		}
	}
	// A repeated key keeps its first place and its last value.
	fields, _ := ParseFields(json.RawMessage(`{"properties":{"a":{"type":"string"},"b":{},"a":{"type":"integer"}}}`))
	if len(fields) != 2 || fields[0].Name != "a" || fields[0].Kind != kindInteger {
		t.Errorf("duplicate key: %+v", fields)
	}
}

func TestSchemaIsComplex(t *testing.T) {
	for schema, want := range map[string]bool{
		`{"type":"object","properties":{"a":{}}}`:                           false,
		`{"type":"object","additionalProperties":false}`:                    false,
		`{"type":"object","additionalProperties":{"type":"string"}}`:        true,
		`{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`: true,
		`{"type":"object","$ref":"#/$defs/x"}`:                              true,
		`[]`:                                                                false,
	} {
		if got := schemaIsComplex(json.RawMessage(schema)); got != want {
			t.Errorf("schemaIsComplex(%s) = %v, want %v", schema, got, want)
		}
	}
}

// recursiveInputSchemas refer to themselves without descending into the
// arguments (tree, which descends, aside). The form reads only the top-level
// properties and their items, so it follows no $ref; the tool's schema check
// refuses them (client). Each says "type":"object" for go-sdk's server.
var recursiveInputSchemas = map[string]string{
	"self":       `{"type":"object","$ref":"#"}`,
	"defs-cycle": `{"type":"object","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
	"allOf":      `{"type":"object","allOf":[{"$ref":"#"}]}`,
	"anyOf":      `{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"$ref":"#"}]}`,
	"not":        `{"type":"object","properties":{"a":{"type":"string"}},"not":{"$ref":"#"}}`,
	"property":   `{"type":"object","properties":{"a":{"$ref":"#"},"b":{"type":"array","items":{"$ref":"#/properties/b"}},"c":{"anyOf":[{"$ref":"#/properties/c"}]}}}`,
	"tree":       `{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#"}}}}`,
}

func TestSchemaParseFieldsFollowsNoReference(t *testing.T) {
	for name, schema := range recursiveInputSchemas {
		fields, err := ParseFields(json.RawMessage(schema))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for _, f := range fields {
			if f.TypeLabel() == "" {
				t.Errorf("%s: field %s has no type label", name, f.Name)
			}
		}
		if name != "tree" && name != "property" && !schemaIsComplex(json.RawMessage(schema)) {
			t.Errorf("%s: a schema of references must open the JSON editor", name)
		}
	}
}
