package client

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

// fieldRow is what a test says about one field.
type fieldRow struct {
	Name     string
	Types    []string
	Input    Input
	Enum     []any
	Titles   []string
	Default  any
	Required bool
}

func rowsOf(s *Schema) []fieldRow {
	var out []fieldRow
	for _, f := range s.Fields {
		r := fieldRow{Name: f.Name, Types: f.Types, Input: f.Input, Enum: f.Enum, Titles: f.EnumTitles, Required: f.Required}
		if f.Input == InputMulti {
			r.Enum, r.Titles = f.Items.Enum, f.Items.EnumTitles
		}
		if f.HasDefault {
			r.Default = f.Default
			if r.Default == nil {
				r.Default = "null"
			}
		}
		out = append(out, r)
	}
	return out
}

type goSDKArgs struct {
	Query string            `json:"query" jsonschema:"what to look for"`
	Limit int               `json:"limit,omitempty"`
	Ratio *float64          `json:"ratio,omitempty"`
	Tags  []string          `json:"tags,omitempty"`
	Exact bool              `json:"exact"`
	Meta  map[string]string `json:"meta,omitempty"`
}

func goSDKSchema(t *testing.T) string {
	s, err := jsonschema.For[goSDKArgs](nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// A FastMCP tool: pydantic writes enums and models as $refs into $defs,
// Optional[X] as anyOf [X, null], and (before 2.9) a $ref with a default
// inside a one-branch allOf.
const pydanticSchema = `{"$defs":{
	"Address":{"properties":{"street":{"title":"Street","type":"string"}},"required":["street"],"title":"Address","type":"object"},
	"Color":{"enum":["red","green"],"title":"Color","type":"string"}},
 "properties":{
	"query":{"title":"Query","type":"string"},
	"limit":{"default":10,"title":"Limit","type":"integer"},
	"color":{"$ref":"#/$defs/Color","default":"red"},
	"maybe_color":{"anyOf":[{"$ref":"#/$defs/Color"},{"type":"null"}],"default":null},
	"tags":{"default":[],"items":{"type":"string"},"title":"Tags","type":"array"},
	"ratio":{"anyOf":[{"type":"number"},{"type":"null"}],"default":null,"title":"Ratio"},
	"address":{"anyOf":[{"$ref":"#/$defs/Address"},{"type":"null"}],"default":null},
	"mode":{"default":"fast","enum":["fast","slow"],"title":"Mode","type":"string"},
	"count":{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}],"default":null,"title":"Count"},
	"old_color":{"allOf":[{"$ref":"#/$defs/Color"}],"default":"red"},
	"auto_or_n":{"anyOf":[{"const":"auto","type":"string"},{"type":"integer"}],"title":"Auto Or N"}},
 "required":["query"],"title":"searchArguments","type":"object"}`

// zod-to-json-schema, as the TypeScript SDK used it (draft-07).
const zodSchema = `{"type":"object","properties":{
	"name":{"type":"string","minLength":1},
	"age":{"type":"integer","exclusiveMinimum":0},
	"email":{"type":"string","format":"email"},
	"role":{"type":"string","enum":["admin","user"],"default":"user"},
	"nickname":{"type":["string","null"]},
	"tags":{"type":"array","items":{"type":"string"},"maxItems":5},
	"kind":{"type":"string","const":"note"},
	"either":{"anyOf":[{"type":"string"},{"type":"number"}]}},
 "required":["name","kind"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}`

// The shapes a form-mode elicitation/create may ask for (2025-11-25):
// primitives with formats and bounds, single- and multi-select enums,
// titled (oneOf/anyOf of const and title) and legacy (enumNames).
const elicitSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Your name","minLength":1,"maxLength":50},
	"email":{"type":"string","title":"Email","format":"email"},
	"site":{"type":"string","format":"uri"},
	"birthday":{"type":"string","format":"date"},
	"meet":{"type":"string","format":"date-time"},
	"age":{"type":"integer","minimum":0,"maximum":150,"default":30},
	"score":{"type":"number","minimum":0,"maximum":1},
	"subscribe":{"type":"boolean","default":true},
	"size":{"type":"string","enum":["s","m","l"],"default":"m"},
	"colour":{"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"}],"default":"#0f0"},
	"legacy":{"type":"string","enum":["a","b"],"enumNames":["Alpha","Beta"]},
	"toppings":{"type":"array","items":{"type":"string","enum":["cheese","ham","olives"]},"minItems":1,"maxItems":2,"default":["cheese"]},
	"pets":{"type":"array","items":{"anyOf":[{"const":"cat","title":"Cat"},{"const":"dog","title":"Dog"}]}}},
 "required":["name","email"]}`

func TestReadSchemaRealWorld(t *testing.T) {
	t.Parallel()
	s, arr := []string{"string"}, "array"
	tests := []struct {
		name   string
		schema string
		want   []fieldRow
		whole  string
	}{
		{"go-sdk inferred", goSDKSchema(t), []fieldRow{
			{Name: "query", Types: s, Input: InputText, Required: true},
			{Name: "limit", Types: []string{"integer"}, Input: InputInteger},
			{Name: "ratio", Types: []string{"null", "number"}, Input: InputNumber},
			{Name: "tags", Types: []string{"null", arr}, Input: InputList},
			{Name: "exact", Types: []string{"boolean"}, Input: InputBool, Required: true},
			{Name: "meta", Types: []string{"object"}, Input: InputJSON},
		}, ""},
		{"pydantic", pydanticSchema, []fieldRow{
			{Name: "query", Types: s, Input: InputText, Required: true},
			{Name: "limit", Types: []string{"integer"}, Input: InputInteger, Default: 10.0},
			{Name: "color", Types: s, Input: InputChoice, Enum: []any{"red", "green"}, Default: "red"},
			{Name: "maybe_color", Types: []string{"string", "null"}, Input: InputChoice, Enum: []any{"red", "green"}, Default: "null"},
			{Name: "tags", Types: []string{arr}, Input: InputList, Default: []any{}},
			{Name: "ratio", Types: []string{"number", "null"}, Input: InputNumber, Default: "null"},
			{Name: "address", Types: []string{"object", "null"}, Input: InputJSON, Default: "null"},
			{Name: "mode", Types: s, Input: InputChoice, Enum: []any{"fast", "slow"}, Default: "fast"},
			{Name: "count", Types: []string{"integer", "null"}, Input: InputInteger, Default: "null"},
			{Name: "old_color", Types: s, Input: InputChoice, Enum: []any{"red", "green"}, Default: "red"},
			{Name: "auto_or_n", Types: []string{"string", "integer"}, Input: InputText, Enum: []any{"auto"}},
		}, ""},
		{"zod", zodSchema, []fieldRow{
			{Name: "name", Types: s, Input: InputText, Required: true},
			{Name: "age", Types: []string{"integer"}, Input: InputInteger},
			{Name: "email", Types: s, Input: InputText},
			{Name: "role", Types: s, Input: InputChoice, Enum: []any{"admin", "user"}, Default: "user"},
			{Name: "nickname", Types: []string{"string", "null"}, Input: InputText},
			{Name: "tags", Types: []string{arr}, Input: InputList},
			{Name: "kind", Types: s, Input: InputChoice, Enum: []any{"note"}, Required: true},
			{Name: "either", Types: []string{"string", "number"}, Input: InputText},
		}, ""},
		{"zod, named root", `{"$ref":"#/definitions/args","definitions":{"args":` + zodSchema + `},"$schema":"http://json-schema.org/draft-07/schema#"}`,
			nil, ""}, // same fields as zod: checked below
		{"elicitation", elicitSchema, []fieldRow{
			{Name: "name", Types: s, Input: InputText, Required: true},
			{Name: "email", Types: s, Input: InputText, Required: true},
			{Name: "site", Types: s, Input: InputText},
			{Name: "birthday", Types: s, Input: InputText},
			{Name: "meet", Types: s, Input: InputText},
			{Name: "age", Types: []string{"integer"}, Input: InputInteger, Default: 30.0},
			{Name: "score", Types: []string{"number"}, Input: InputNumber},
			{Name: "subscribe", Types: []string{"boolean"}, Input: InputBool, Default: true},
			{Name: "size", Types: s, Input: InputChoice, Enum: []any{"s", "m", "l"}, Default: "m"},
			{Name: "colour", Types: s, Input: InputChoice, Enum: []any{"#f00", "#0f0"}, Titles: []string{"Red", "Green"}, Default: "#0f0"},
			{Name: "legacy", Types: s, Input: InputChoice, Enum: []any{"a", "b"}, Titles: []string{"Alpha", "Beta"}},
			{Name: "toppings", Types: []string{arr}, Input: InputMulti, Enum: []any{"cheese", "ham", "olives"}, Default: []any{"cheese"}},
			{Name: "pets", Types: []string{arr}, Input: InputMulti, Enum: []any{"cat", "dog"}, Titles: []string{"Cat", "Dog"}},
		}, ""},
		{"rules about the whole", `{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"required":["a"]}],"additionalProperties":{"type":"string"}}`,
			[]fieldRow{{Name: "a", Types: s, Input: InputText}}, "anyOf, additionalProperties"},
	}
	for _, tt := range tests {
		sc := ReadSchema("demo", "input", json.RawMessage(tt.schema))
		if err := sc.Err(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if err := sc.CheckErr(); err != nil {
			t.Errorf("%s: the guard refused it: %v", tt.name, err)
		}
		want := tt.want
		if tt.name == "zod, named root" {
			want = tests[2].want
		}
		if diff := cmp.Diff(want, rowsOf(sc)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		if sc.Whole != tt.whole {
			t.Errorf("%s: Whole = %q, want %q", tt.name, sc.Whole, tt.whole)
		}
	}
}

func TestReadSchemaRules(t *testing.T) {
	t.Parallel()
	sc := ReadSchema("demo", "input", json.RawMessage(elicitSchema))
	name, age, email := sc.Field("name"), sc.Field("age"), sc.Field("email")
	if name.Title != "Your name" || *name.MinLength != 1 || *name.MaxLength != 50 {
		t.Errorf("name = %+v", name)
	}
	if *age.Minimum != 0 || *age.Maximum != 150 || age.ExclusiveMinimum {
		t.Errorf("age = %+v", age)
	}
	if email.Format != "email" || sc.Field("meet").Format != "date-time" {
		t.Errorf("formats %q %q", email.Format, sc.Field("meet").Format)
	}
	if tp := sc.Field("toppings"); *tp.MinItems != 1 || *tp.MaxItems != 2 {
		t.Errorf("toppings = %+v", tp)
	}
	zod := ReadSchema("demo", "input", json.RawMessage(zodSchema))
	if a := zod.Field("age"); *a.Minimum != 0 || !a.ExclusiveMinimum {
		t.Errorf("zod age: exclusiveMinimum 0 read as %v, exclusive %v", *a.Minimum, a.ExclusiveMinimum)
	}
	py := ReadSchema("demo", "input", json.RawMessage(pydanticSchema))
	if c := py.Field("count"); c.Minimum == nil || *c.Minimum != 1 {
		t.Errorf("Optional[conint(ge=1)] keeps its bound: %+v", c)
	}
	if c := py.Field("color"); c.Title != "Color" {
		t.Errorf("a $ref's target gives what the property lacks: title %q", c.Title)
	}
	old := ReadSchema("demo", "input", json.RawMessage(`{"properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true,"maxLength":1.0}}}`))
	if n := old.Field("n"); !n.ExclusiveMinimum || *n.MaxLength != 1 {
		t.Errorf("draft-04 exclusiveMinimum, and a length written 1.0: %+v", n)
	}
}

func TestSchemaDefaultsMissingValidate(t *testing.T) {
	t.Parallel()
	sc := ReadSchema("demo", "requested", json.RawMessage(elicitSchema))
	want := map[string]any{"age": 30.0, "subscribe": true, "size": "m", "colour": "#0f0", "toppings": []any{"cheese"}}
	d := sc.Defaults()
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("Defaults (-want +got):\n%s", diff)
	}
	d["toppings"].([]any)[0] = "changed"
	if sc.Defaults()["toppings"].([]any)[0] != "cheese" {
		t.Error("Defaults shares its values between calls")
	}
	if got := sc.Missing(d); !cmp.Equal(got, []string{"name", "email"}) {
		t.Errorf("Missing = %v", got)
	}
	if err := sc.Validate(sc.Defaults()); err == nil || !strings.Contains(err.Error(), "required") {
		t.Errorf("defaults without the required fields: %v", err)
	}
	ok := sc.Defaults()
	ok["name"], ok["email"] = "Ada", "ada@example.com"
	if err := sc.Validate(ok); err != nil {
		t.Errorf("a complete answer: %v", err)
	}
	ok["toppings"] = []any{"ham", "cheese", "olives"}
	var ae *ArgError
	if err := sc.Validate(ok); !errors.As(err, &ae) || ae.Arg != "toppings" {
		t.Errorf("three toppings of at most two: %v", err)
	}
	if sc.Notice() != "" || sc.CheckErr() != nil {
		t.Errorf("notice %q, check error %v", sc.Notice(), sc.CheckErr())
	}
}

func TestReadSchemaUnreadable(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		`[]`:                 "schema is an array, not a JSON object",
		`"object"`:           "schema is a string, not a JSON object",
		`{`:                  "schema is not valid JSON, not a JSON object",
		`{"properties":5}`:   "schema properties are a number, not an object",
		`{"properties":[1]}`: "schema properties are an array, not an object",
	} {
		sc := ReadSchema("demo", "input", json.RawMessage(raw))
		if sc.Err() == nil || sc.Err().Error() != want {
			t.Errorf("%s: Err = %v, want %q", raw, sc.Err(), want)
		}
	}
	for _, raw := range []string{``, `null`, `{}`, `{"type":"object"}`, `{"properties":null}`} {
		if sc := ReadSchema("demo", "input", json.RawMessage(raw)); sc.Err() != nil || len(sc.Fields) != 0 {
			t.Errorf("%s: %v, %d fields", raw, sc.Err(), len(sc.Fields))
		}
	}
	// Keywords of the wrong shape are ignored one by one.
	sc := ReadSchemaText(json.RawMessage(`{"properties":{"a":{"type":5,"enum":"x","items":7,"anyOf":3,"minimum":"1"},"b":{"type":["integer",5]}}}`))
	if a, b := sc.Field("a"), sc.Field("b"); a.Input != InputJSON || a.Minimum != nil || b.Input != InputInteger {
		t.Errorf("a = %+v, b = %+v", a, b)
	}
}

// Each key=value the schemas above are written for, and what it becomes.
func TestSchemaParseArgsRealWorld(t *testing.T) {
	t.Parallel()
	tests := []struct {
		schema string
		argv   []string
		want   map[string]any
	}{
		{pydanticSchema, []string{"query=q", "color=green", "maybe_color=null", "count=3", "ratio=0.5", "tags=a, b"},
			map[string]any{"query": "q", "color": "green", "maybe_color": nil, "count": int64(3), "ratio": 0.5, "tags": []any{"a", "b"}}},
		{pydanticSchema, []string{"maybe_color=red", "count=null", `address={"street":"x"}`, "old_color=red"},
			map[string]any{"maybe_color": "red", "count": nil, "address": map[string]any{"street": "x"}, "old_color": "red"}},
		{pydanticSchema, []string{"auto_or_n=auto", "limit= 7 "}, map[string]any{"auto_or_n": "auto", "limit": int64(7)}},
		{pydanticSchema, []string{"auto_or_n=5"}, map[string]any{"auto_or_n": int64(5)}},
		{goSDKSchema(t), []string{"query=q", "ratio=null", "tags=null", "exact=true"},
			map[string]any{"query": "q", "ratio": nil, "tags": nil, "exact": true}},
		{goSDKSchema(t), []string{"tags=x,y"}, map[string]any{"tags": []any{"x", "y"}}},
		{elicitSchema, []string{"colour=Red", "legacy=Beta", "pets=Cat,dog", "toppings=ham, olives", "size=l", "age=40"},
			map[string]any{"colour": "#f00", "legacy": "b", "pets": []any{"cat", "dog"}, "toppings": []any{"ham", "olives"}, "size": "l", "age": int64(40)}},
		{elicitSchema, []string{"colour=#0f0", "legacy=Gamma"}, map[string]any{"colour": "#0f0", "legacy": "Gamma"}},
		{`{"properties":{"level":{"const":3},"any":{"enum":["a",1,true]}}}`, []string{"level=3", "any=1"},
			map[string]any{"level": 3.0, "any": 1.0}},
		{`{"properties":{"tup":{"type":"array","items":[{"type":"integer"}]},"n":{"type":"integer"}}}`, []string{"tup=1,2", "n=3"},
			map[string]any{"tup": []any{"1", "2"}, "n": int64(3)}},
	}
	for _, tt := range tests {
		sc := ReadSchema("demo", "input", json.RawMessage(tt.schema))
		got, err := sc.ParseArgs(tt.argv)
		if err != nil {
			t.Errorf("%q: %v", tt.argv, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.argv, diff)
		}
	}
}

// Tool.Input follows $refs through the tool's own compiled schema, and
// Tool.ParseArgs types by it.
func TestToolInputFollowsRefs(t *testing.T) {
	t.Parallel()
	tool := schemaTool(t, pydanticSchema)
	if f := tool.Input().Field("maybe_color"); f.Input != InputChoice {
		t.Errorf("maybe_color = %+v", f)
	}
	args, err := tool.ParseArgs([]string{"query=q", "maybe_color=null"})
	if err != nil || args["maybe_color"] != nil {
		t.Errorf("args %v, %v", args, err)
	}
	if err := tool.Validate(args); err != nil {
		t.Error(err)
	}
	if v, err := tool.ParseValue("count", "4", false); err != nil || v != int64(4) {
		t.Errorf("ParseValue = %v, %v", v, err)
	}
	// The detail pane's cheap reading follows none.
	if f := ReadSchemaText(tool.InputSchema).Field("color"); f.Input != InputJSON {
		t.Errorf("ReadSchemaText followed a $ref: %+v", f)
	}
}
