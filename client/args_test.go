package client

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func schemaTool(t *testing.T, schema string) *Tool {
	t.Helper()
	tool, err := parseTool(json.RawMessage(`{"name":"demo","inputSchema":` + schema + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

const argSchema = `{"type":"object","properties":{
	"title":{"type":"string","minLength":1},
	"count":{"type":"integer","minimum":1},
	"ratio":{"type":"number"},
	"pinned":{"type":"boolean"},
	"tags":{"type":"array","items":{"type":"string"}},
	"ids":{"type":"array","items":{"type":"integer"}},
	"units":{"type":"string","enum":["metric","imperial"]},
	"filter":{"type":"object","properties":{"limit":{"type":"integer","maximum":5}}},
	"maybe":{"type":["integer","null"]},
	"opt":{"anyOf":[{"type":"integer"},{"type":"null"}]}
},"required":["title"],"additionalProperties":false}`

func TestParseArgs(t *testing.T) {
	t.Parallel()
	tool := schemaTool(t, argSchema)
	tests := []struct {
		argv []string
		want map[string]any
		err  string
	}{
		{[]string{`{"title":"x","count":2}`}, map[string]any{"title": "x", "count": 2.0}, ""},
		{[]string{"title=x", "count=2", "ratio=0.5", "pinned=true"}, map[string]any{"title": "x", "count": int64(2), "ratio": 0.5, "pinned": true}, ""},
		{[]string{"title=3"}, map[string]any{"title": "3"}, ""},
		{[]string{"tags=a,b", "ids=1,2"}, map[string]any{"tags": []any{"a", "b"}, "ids": []any{int64(1), int64(2)}}, ""},
		{[]string{`tags=["a,b"]`}, map[string]any{"tags": []any{"a,b"}}, ""},
		{[]string{`filter={"limit":3}`}, map[string]any{"filter": map[string]any{"limit": 3.0}}, ""},
		{[]string{"maybe=null"}, map[string]any{"maybe": nil}, ""},
		{[]string{"opt=3"}, map[string]any{"opt": int64(3)}, ""},
		{[]string{"title:=null"}, map[string]any{"title": nil}, ""},
		{[]string{"unknown=1"}, map[string]any{"unknown": "1"}, ""},
		{[]string{"title=a=b"}, map[string]any{"title": "a=b"}, ""},
		{nil, map[string]any{}, ""},
		{[]string{"count=two"}, nil, `argument "count": "two" is not an integer`},
		{[]string{"pinned=maybe"}, nil, `"maybe" is not true or false`},
		{[]string{"ids=1,x"}, nil, `item "x": "x" is not an integer`},
		{[]string{"title"}, nil, `"title" is not key=value`},
		{[]string{"=x"}, nil, `is not key=value`},
		{[]string{"title=a", "title=b"}, nil, `"title" given twice`},
		{[]string{`{"title":`}, nil, "not valid JSON"},
		{[]string{`{"a":1} {"b":2}`}, nil, "text after the JSON object"},
		{[]string{"title:={bad"}, nil, "key:=value takes JSON"},
	}
	for _, tt := range tests {
		got, err := tool.ParseArgs(tt.argv)
		if tt.err != "" {
			var ue *UsageError
			if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &ue) {
				t.Errorf("ParseArgs(%q) err = %v, want UsageError containing %q", tt.argv, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseArgs(%q): %v", tt.argv, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseArgs(%q) (-want +got):\n%s", tt.argv, diff)
		}
	}
	if _, err := ParseJSONArgs("demo", []byte(`[1]`)); err == nil || !strings.Contains(err.Error(), "not an array") {
		t.Errorf("array args: %v", err)
	}
}

func TestValidateNamesTheArgumentAndTheRule(t *testing.T) {
	t.Parallel()
	tool := schemaTool(t, argSchema)
	tests := []struct {
		args               string
		arg, rule, schemaP string
	}{
		{`{}`, "title", "required but missing", "/required"},
		{`{"title":""}`, "title", "minLength", "/properties/title"},
		{`{"title":"x","count":0}`, "count", "minimum: 0 is less than 1", "/properties/count"},
		{`{"title":"x","count":1.5}`, "count", `want "integer"`, "/properties/count"},
		{`{"title":"x","units":"kelvin"}`, "units", "enum", "/properties/units"},
		{`{"title":"x","filter":{"limit":9}}`, "filter.limit", "maximum", "/properties/filter/properties/limit"},
		{`{"title":"x","tags":[1]}`, "tags[]", "type", "/properties/tags/items"},
		{`{"title":"x","colour":"red"}`, "colour", "not an argument this tool accepts", "/additionalProperties"},
	}
	for _, tt := range tests {
		args, _ := ParseJSONArgs("demo", []byte(tt.args))
		err := tool.Validate(args)
		var ae *ArgError
		if !errors.As(err, &ae) {
			t.Errorf("Validate(%s) = %v, want an ArgError", tt.args, err)
			continue
		}
		if ae.Arg != tt.arg || !strings.Contains(ae.Rule, tt.rule) || ae.SchemaPath != tt.schemaP {
			t.Errorf("Validate(%s) = arg %q rule %q path %q; want %q, %q, %q", tt.args, ae.Arg, ae.Rule, ae.SchemaPath, tt.arg, tt.rule, tt.schemaP)
		}
	}
	if err := tool.Validate(map[string]any{"title": "ok", "count": int64(3)}); err != nil {
		t.Errorf("valid args: %v", err)
	}
}

// jsonschema-go names a schema with an $id by its $id, which a URI's colon
// made the end of the path: the rule came back with the whole chain of
// "validating …" in front of it.
func TestValidateNamesTheRuleUnderAnID(t *testing.T) {
	t.Parallel()
	tool := schemaTool(t, `{"$id":"https://example.com/s","type":"object","properties":{"n":{"type":"integer"}}}`)
	args, _ := ParseJSONArgs("demo", []byte(`{"n":"x"}`))
	var ae *ArgError
	if err := tool.Validate(args); !errors.As(err, &ae) || ae.Arg != "n" || !strings.HasPrefix(ae.Rule, "type: ") || ae.SchemaPath != "/properties/n" {
		t.Errorf("Validate = %#v (%v), want arg n, rule \"type: …\", schema /properties/n", ae, err)
	}
}

func TestSchemasThatDoNotCompile(t *testing.T) {
	t.Parallel()
	broken := schemaTool(t, `{"type":"object","properties":{"a":{"$ref":"https://example.com/remote.json"}}}`)
	if in, _ := broken.SchemaErrors(); in == nil {
		t.Error("a remote $ref compiled: validation must never reach the network")
	}
	if err := broken.Validate(map[string]any{"a": 1}); err != nil {
		t.Errorf("an uncompilable schema cannot be checked, so it must not block: %v", err)
	}
	if n := broken.SchemaNotice(); !strings.Contains(n, "sent unchecked") {
		t.Errorf("notice %q", n)
	}
	old := schemaTool(t, `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"integer"}}}`)
	if err := old.Validate(map[string]any{"n": "x"}); err == nil {
		t.Error("a draft-04 schema was not checked at all")
	}
	if n := old.SchemaNotice(); !strings.Contains(n, "draft-04") {
		t.Errorf("notice %q", n)
	}
	none := schemaTool(t, `null`)
	if err := none.Validate(map[string]any{"x": 1}); err != nil {
		t.Errorf("no schema: %v", err)
	}
}

func TestValidateOutput(t *testing.T) {
	t.Parallel()
	tool, _ := parseTool(json.RawMessage(`{"name":"s","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"total":{"type":"integer"}},"required":["total"]}}`))
	if err := tool.ValidateOutput(json.RawMessage(`{"total":3}`)); err != nil {
		t.Error(err)
	}
	err := tool.ValidateOutput(json.RawMessage(`{"total":"many"}`))
	if err == nil || !strings.Contains(err.Error(), "structuredContent.total") {
		t.Errorf("err = %v", err)
	}
}

func TestTidyNumbers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"maximum: 500/1 is greater than 50.000000":                 "maximum: 500 is greater than 50",
		"minimum: 1/2 is less than 0.750000":                       "minimum: 0.5 is less than 0.75",
		"exclusiveMinimum: -3/1 is less than or equal to 0.000000": "exclusiveMinimum: -3 is less than or equal to 0",
		`minLength: "1/2" contains 3 Unicode code points`:          `minLength: "1/2" contains 3 Unicode code points`,
		"required but missing":                                     "required but missing",
	} {
		if got := tidyNumbers(in); got != want {
			t.Errorf("tidyNumbers(%q) = %q, want %q", in, got, want)
		}
	}
}

// A type listed twice was tried twice at every level of nested items: 2^40
// attempts for a value that fits none, a hang.
func TestParseArgsTriesEachTypeOnce(t *testing.T) {
	t.Parallel()
	const depth = 40
	schema := `{"properties":{"a":` + strings.Repeat(`{"type":["array","array"],"items":`, depth) +
		`{"type":"integer"}` + strings.Repeat(`}`, depth) + `}}`
	_, err := schemaTool(t, schema).ParseArgs([]string{"a=x"})
	if err == nil || !strings.Contains(err.Error(), `"x" is not an integer`) {
		t.Errorf("err = %v", err)
	}
	tool := schemaTool(t, `{"properties":{"n":{"type":["string","integer","string"]}}}`)
	if args, err := tool.ParseArgs([]string{"n=3"}); err != nil || args["n"] != "3" {
		t.Errorf("types are tried in the order given: %v, %v", args, err)
	}
}

// Behaviour that changed when key=value and the TUI form came to read the
// schema through one reader (schema.go): each was a disagreement.
func TestParseArgsAgreesWithTheForm(t *testing.T) {
	t.Parallel()
	// A keyword of the wrong shape spoils only itself (the schema does not
	// compile, so no $ref would be followed: see below).
	odd := schemaTool(t, `{"properties":{"odd":{"type":"array","items":7,"anyOf":3},"n":{"type":"integer"}}}`)
	if args, err := odd.ParseArgs([]string{"odd=x", "n=3"}); err != nil || !cmp.Equal(args, map[string]any{"odd": []any{"x"}, "n": int64(3)}) {
		t.Errorf("odd schema: %v, %v", args, err)
	}
	tool := schemaTool(t, `{"type":"object","properties":{
		"n":{"type":"integer"},
		"ids":{"type":"array","items":{"type":"integer"}},
		"level":{"const":3},
		"colour":{"type":"string","oneOf":[{"const":"#f00","title":"Red"}]},
		"model":{"anyOf":[{"$ref":"#/$defs/M"},{"type":"null"}]}},
		"$defs":{"M":{"type":"object"}}}`)
	args, err := tool.ParseArgs([]string{"n= 3", "ids=1, 2", "level=3", "colour=Red", `model={"a":1}`})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"n":      int64(3),                  // spaces around a number mean nothing
		"ids":    []any{int64(1), int64(2)}, // items are trimmed, as the form trims them
		"level":  3.0,                       // the enum's value, not the string "3"
		"colour": "#f00",                    // a titled enum takes its title
		"model":  map[string]any{"a": 1.0},  // Optional[Model]: the $ref is followed, not dropped (which left only "null")
	}
	if diff := cmp.Diff(want, args); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
