package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// recursiveSchemas are schemas that apply themselves to the same value
// without end. Before the guard, validating anything against one of them
// overflowed the Go stack inside jsonschema-go's (*state).validate: a fatal
// error that killed the process.
var recursiveSchemas = []struct {
	name, schema, where string
}{
	{"self", `{"$ref":"#"}`, "$ref at /$ref leads back to #"},
	{"defs-cycle", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		"$ref at /$defs/b/$ref leads back to #/$defs/a"},
	{"definitions-escaped", `{"definitions":{"a/b":{"$ref":"#/definitions/c~0d"},"c~d":{"$ref":"#/definitions/a~1b"}},"$ref":"#/definitions/a~1b"}`,
		"$ref at /definitions/c~0d/$ref leads back to #/definitions/a~1b"},
	{"allOf", `{"type":"object","allOf":[{"$ref":"#"}]}`, "$ref at /allOf/0/$ref leads back to #"},
	{"anyOf", `{"anyOf":[{"type":"string"},{"$ref":"#"}]}`, "$ref at /anyOf/1/$ref leads back to #"},
	{"oneOf", `{"oneOf":[{"$ref":"#"}]}`, "$ref at /oneOf/0/$ref leads back to #"},
	{"not", `{"not":{"$ref":"#"}}`, "$ref at /not/$ref leads back to #"},
	{"if", `{"if":{"$ref":"#"}}`, "$ref at /if/$ref leads back to #"},
	{"then", `{"if":{"type":"object"},"then":{"$ref":"#"}}`, "$ref at /then/$ref leads back to #"},
	{"dependentSchemas", `{"dependentSchemas":{"a":{"$ref":"#"}}}`, "$ref at /dependentSchemas/a/$ref leads back to #"},
	{"anchor", `{"$anchor":"top","anyOf":[{"$ref":"#top"}]}`, "$ref at /anyOf/0/$ref leads back to #"},
	{"dynamicRef", `{"$dynamicAnchor":"n","allOf":[{"$dynamicRef":"#n"}]}`, "$dynamicRef at /allOf/0/$dynamicRef leads back to #"},
	{"by-id", `{"$id":"https://example.com/s","$defs":{"x":{"$id":"x","$ref":"https://example.com/s"}},"$ref":"x"}`,
		"$ref at /$defs/x/$ref leads back to #"},
	{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"$ref":"#"}},"$ref":"#/definitions/a"}`,
		"$ref at /definitions/a/$ref leads back to #"},
	// encoding/json matches struct fields case-insensitively, so jsonschema-go
	// reads these as $ref and allOf.
	{"case", `{"ALLOF":[{"$REF":"#"}]}`, "$ref at /allOf/0/$ref leads back to #"},
}

func recursiveToolsJSON() string {
	var tools []string
	for _, rs := range recursiveSchemas {
		tools = append(tools, fmt.Sprintf(`{"name":%q,"inputSchema":%s,"outputSchema":%s,"annotations":{"readOnlyHint":true}}`,
			rs.name, rs.schema, rs.schema))
	}
	return "[" + strings.Join(tools, ",") + "]"
}

func init() {
	fakeTools["recursive-schemas"] = recursiveToolsJSON()
}

func TestRecursiveSchemasAreRefusedNotFollowed(t *testing.T) {
	t.Parallel()
	for _, rs := range recursiveSchemas {
		t.Run(rs.name, func(t *testing.T) {
			tool, err := parseTool(json.RawMessage(`{"name":"get_x","inputSchema":` + rs.schema + `,"outputSchema":` + rs.schema + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if err := tool.Validate(map[string]any{"a": 1}); err != nil {
				t.Errorf("Validate = %v: an unusable schema must not block the call", err)
			}
			if err := tool.ValidateOutput(json.RawMessage(`{"a":[1,{"b":2}]}`)); err != nil {
				t.Errorf("ValidateOutput = %v, want nil for an unusable schema", err)
			}
			in, out := tool.SchemaErrors()
			var se *SchemaError
			if !errors.As(in, &se) || se.Which != "input" || !errors.As(out, &se) || se.Which != "output" {
				t.Fatalf("SchemaErrors = %v, %v; want a *SchemaError for each", in, out)
			}
			want := "get_x: input schema: " + rs.where
			if !strings.Contains(in.Error(), want) || !strings.Contains(in.Error(), "recursive schemas like this cannot be checked") {
				t.Errorf("input error %q\nwant it to contain %q", in, want)
			}
			if !strings.Contains(out.Error(), "get_x: output schema: ") || !strings.Contains(out.Error(), "without descending into structuredContent") {
				t.Errorf("output error %q", out)
			}
			if n := tool.SchemaNotice(); !strings.HasPrefix(n, "get_x: input schema: ") || !strings.HasSuffix(n, "arguments are sent unchecked") {
				t.Errorf("notice %q", n)
			}
		})
	}
}

func TestRecursiveSchemasThroughASession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Connect(ctx, fakeTarget(t, "recursive-schemas"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l, err := s.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Tools) != len(recursiveSchemas) {
		t.Fatalf("listed %d tools, want %d (warnings %q)", len(l.Tools), len(recursiveSchemas), l.Warnings)
	}
	for _, rs := range recursiveSchemas {
		tool := mustTool(t, s, rs.name)
		if in, out := tool.SchemaErrors(); in == nil || out == nil {
			t.Errorf("%s: SchemaErrors = %v, %v", rs.name, in, out)
		}
		if err := tool.Validate(nil); err != nil {
			t.Errorf("%s: Validate = %v", rs.name, err)
		}
		o, err := s.Do(ctx, &Call{Tool: tool, Args: map[string]any{"a": 1}, Mode: policy.Batch, Preapproved: true})
		if err != nil || o == nil {
			t.Fatalf("%s: Do = %v, %v", rs.name, o, err)
		}
		if o.Status != StatusOK {
			t.Errorf("%s: status %s (%s)", rs.name, o.Status, o.Error)
		}
	}
}

// Schemas that recurse by descending into the value end where the value does.
func TestRecursiveSchemasThatDescendStillCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema, good, bad, arg string
	}{
		{"tree", `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"additionalProperties":false}`,
			`{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}`,
			`{"name":"a","children":[{"name":"b","children":[{"name":3}]}]}`, "name"},
		{"linked-list", `{"$defs":{"node":{"type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"}`,
			`{"v":1,"next":{"v":2,"next":{"v":3}}}`, `{"v":1,"next":{"v":2,"next":{"v":"x"}}}`, ""},
		{"names", `{"propertyNames":{"$ref":"#"},"maxLength":2}`, `{"ab":1}`, `{"abc":1}`, ""},
		{"dynamic-tree", `{"$id":"https://example.com/tree","$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}`,
			`{"kids":[{"kids":[]}]}`, `{"kids":[{"kids":5}]}`, ""},
		{"shared-defs", `{"$defs":{"id":{"type":"string"},"pair":{"allOf":[{"$ref":"#/$defs/id"},{"$ref":"#/$defs/id"}]}},"properties":{"a":{"$ref":"#/$defs/pair"},"b":{"$ref":"#/$defs/pair"}}}`,
			`{"a":"x","b":"y"}`, `{"a":"x","b":1}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := schemaTool(t, tt.schema)
			if in, _ := tool.SchemaErrors(); in != nil {
				t.Fatalf("a schema that descends was refused: %v", in)
			}
			good, _ := ParseJSONArgs("demo", []byte(tt.good))
			if err := tool.Validate(good); err != nil {
				t.Errorf("good: %v", err)
			}
			bad, _ := ParseJSONArgs("demo", []byte(tt.bad))
			var ae *ArgError
			if err := tool.Validate(bad); !errors.As(err, &ae) || (tt.arg != "" && ae.Arg != tt.arg) {
				t.Errorf("bad: %v, want an ArgError for %q", err, tt.arg)
			}
		})
	}
}

func TestSchemaLimits(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat(`{"properties":{"a":`, maxSchemaDepth+1) + `{}` + strings.Repeat(`}}`, maxSchemaDepth+1)
	wide := `{"anyOf":[` + strings.Repeat(`{},`, maxSchemaNodes) + `{}]}`
	huge := `{"description":"` + strings.Repeat("x", maxSchemaBytes) + `"}`
	nested := `{"default":` + strings.Repeat("[", maxSchemaJSONDepth+1) + strings.Repeat("]", maxSchemaJSONDepth+1) + `}`
	// Each $defs entry applies the next twice to the same value: 2^40 checks of
	// any value, a hang rather than a crash, before the guard.
	var defs []string
	for i := range 40 {
		defs = append(defs, fmt.Sprintf(`"d%d":{"allOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	doubling := `{"$defs":{` + strings.Join(defs, ",") + `,"d40":{"type":"object"}},"$ref":"#/$defs/d0"}`
	for name, tt := range map[string]struct{ schema, want string }{
		"depth":    {deep, "nests subschemas more than 64 deep"},
		"nodes":    {wide, "more than 100000 subschemas"},
		"bytes":    {huge, "more than the 1048576 mcpsh checks"},
		"json":     {nested, "nests JSON more than"},
		"doubling": {doubling, "checks one value against more than 10000 subschemas"},
	} {
		t.Run(name, func(t *testing.T) {
			tool := schemaTool(t, tt.schema)
			in, _ := tool.SchemaErrors()
			if in == nil || !strings.Contains(in.Error(), tt.want) {
				t.Errorf("SchemaErrors = %v, want %q", in, tt.want)
			}
			if err := tool.Validate(map[string]any{"a": map[string]any{"a": 1}}); err != nil {
				t.Errorf("Validate = %v", err)
			}
		})
	}
	fits := strings.Repeat(`{"properties":{"a":`, maxSchemaDepth) + `{}` + strings.Repeat(`}}`, maxSchemaDepth)
	if in, _ := schemaTool(t, fits).SchemaErrors(); in != nil {
		t.Errorf("a schema %d deep was refused: %v", maxSchemaDepth, in)
	}
}

// nestedArrays is a JSON array nested n deep.
func nestedArrays(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// chainSchema takes n references per level of the value it descends. The
// validator recurses n times per level, about 4 KB of stack each: a value
// nested 900 deep (go-sdk reads no message nested 1,000 deep) under
// chainSchema(400) took 1.4 GB of stack, which overflowed.
func chainSchema(n int) string {
	var chain []string
	for i := range n {
		chain = append(chain, fmt.Sprintf(`"c%d":{"$ref":"#/$defs/c%d"}`, i, i+1))
	}
	return fmt.Sprintf(`{"$defs":{%s,"c%d":{"items":{"$ref":"#/$defs/c0"}}},"properties":{"a":{"$ref":"#/$defs/c0"}}}`,
		strings.Join(chain, ","), n)
}

func init() {
	fixture.Scenarios["deep-structured"] = &fixture.Scenario{
		Tools: func(*fixture.Server) string {
			return `[{"name":"deep","inputSchema":{"type":"object"},"outputSchema":` + chainSchema(400) + `,"annotations":{"readOnlyHint":true}}]`
		},
		Call: func(_ *fixture.Server, m fixture.Msg, _ string, _ json.RawMessage, out fixture.Out) {
			out.Send(fixture.Result(m.ID, `{"content":[{"type":"text","text":"deep"}],"structuredContent":{"a":`+nestedArrays(900)+`}}`))
		},
	}
}

func TestDeepStructuredContentThroughASession(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "deep-structured")
	s := connectFixture(t, target, nil)
	o, err := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "deep"), Mode: policy.Batch})
	if err != nil || o.Status != StatusOK {
		t.Fatalf("Do = %v, %v", o, err)
	}
	if !strings.Contains(o.OutputSchemaError, "structuredContent is too deeply nested to check") || o.Result == nil {
		t.Errorf("output schema error %q: the result must be kept and said to be unchecked", o.OutputSchemaError)
	}
}

func TestValuesTooCostlyToCheck(t *testing.T) {
	t.Parallel()
	long := chainSchema(400)
	// Two recursive subschemas per level: 2^40 checks for 40 levels.
	doubling := `{"properties":{"a":{"$ref":"#/$defs/t"}},"$defs":{"t":{"items":{"allOf":[{"$ref":"#/$defs/t"},{"$ref":"#/$defs/t"}]}}}}`
	tests := []struct {
		name, schema, value, want string
	}{
		{"deep", long, nestedArrays(900), "too deeply nested to check"},
		{"doubling", doubling, nestedArrays(40), "too costly to check"},
		// Each level's anyOf keeps the errors of all its branches, which print
		// the rest of the value, and every level wraps them again: {"k":[…]}
		// 120 times around a value that fails took 380 MB of error text.
		{"anyOf-text", anyJSONSchema, strings.Repeat(`{"k":[`, 120) + "true" + strings.Repeat("]}", 120), "too costly to check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, err := parseTool(json.RawMessage(`{"name":"demo","inputSchema":` + tt.schema + `,"outputSchema":` + tt.schema + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if in, out := tool.SchemaErrors(); in != nil || out != nil {
				t.Fatalf("SchemaErrors = %v, %v", in, out)
			}
			args, err := ParseJSONArgs("demo", []byte(`{"a":`+tt.value+`}`))
			if err != nil {
				t.Fatal(err)
			}
			var ae *ArgError
			if err := tool.Validate(args); !errors.As(err, &ae) || !strings.Contains(ae.Rule, tt.want) {
				t.Errorf("Validate = %v, want an ArgError saying %q", err, tt.want)
			}
			err = tool.ValidateOutput(json.RawMessage(`{"a":` + tt.value + `}`))
			if !errors.Is(err, ErrNotChecked) || !strings.Contains(err.Error(), "structuredContent is "+tt.want) {
				t.Errorf("ValidateOutput = %v, want ErrNotChecked saying %q", err, tt.want)
			}
			// A shallow value is still checked.
			if err := tool.Validate(map[string]any{"a": []any{[]any{}}}); err != nil {
				t.Errorf("shallow value: %v", err)
			}
		})
	}
}

// anyJSONSchema is the usual recursive "any JSON value but true and false"
// type, at property a.
const anyJSONSchema = `{"properties":{"a":{"$ref":"#/$defs/v"}},"$defs":{"v":{"anyOf":[{"type":"string"},{"type":"number"},` +
	`{"type":"object","additionalProperties":{"$ref":"#/$defs/v"}},{"type":"array","items":{"$ref":"#/$defs/v"}}]}}}`

// The cost walk must follow every subschema the validator applies, at the
// same nesting, or it would let through what it is there to stop.
func TestCostWalkSeesAsDeepAsTheValidator(t *testing.T) {
	t.Parallel()
	tests := []struct{ schema, value string }{
		{anyJSONSchema, `{"a":` + strings.Repeat(`{"k":[`, 20) + "true" + strings.Repeat("]}", 20) + `}`},
		{`{"properties":{"a":{"$ref":"#/$defs/c0"}},"$defs":{"c0":{"$ref":"#/$defs/c1"},"c1":{"type":"array","items":{"$ref":"#/$defs/c0"}}}}`,
			`{"a":` + strings.Repeat("[", 20) + "true" + strings.Repeat("]", 20) + `}`},
		// draft-07 ignores prefixItems: items applies to every item
		{`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#/definitions/n"}},` +
			`"definitions":{"n":{"type":"array","prefixItems":[{}],"items":{"$ref":"#/definitions/n"}}}}`,
			`{"a":` + strings.Repeat("[", 20) + "true" + strings.Repeat("]", 20) + `}`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#/definitions/n"}},` +
			`"definitions":{"n":{"type":"array","items":[{"$ref":"#/definitions/n"}],"additionalItems":false}}}`,
			`{"a":` + strings.Repeat("[", 20) + "true" + strings.Repeat("]", 20) + `}`},
		{`{"properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"object","patternProperties":{"^k":{"$ref":"#/$defs/n"}},` +
			`"additionalProperties":false,"dependentSchemas":{"k":{"properties":{"k":{"$ref":"#/$defs/n"}}}}}}}`,
			`{"a":` + strings.Repeat(`{"k":`, 20) + "true" + strings.Repeat("}", 20) + `}`},
		{`{"$dynamicAnchor":"n","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"if":{"type":"array"},"then":{"items":{"$dynamicRef":"#n"}},"else":{"const":1}}}}`,
			`{"a":[{"a":[{"a":[{"a":true}]}]}]}`},
	}
	for _, tt := range tests {
		tool := schemaTool(t, tt.schema)
		if in, _ := tool.SchemaErrors(); in != nil {
			t.Fatalf("%s: %v", tt.schema, in)
		}
		args, err := ParseJSONArgs("demo", []byte(tt.value))
		if err != nil {
			t.Fatal(err)
		}
		if tool.Validate(args) == nil {
			t.Fatalf("%s: %s passed; the comparison needs a failure at the bottom", tt.schema, tt.value)
		}
		checkDepthEstimate(t, tool, args)
	}
}

// The bounds leave ordinary large and nested values checked.
func TestLargeValuesAreStillChecked(t *testing.T) {
	t.Parallel()
	list := schemaTool(t, `{"type":"object","properties":{"a":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"null"}]}}}}`)
	args, _ := ParseJSONArgs("demo", []byte(`{"a":[`+strings.Repeat(`"x",null,`, 50_000)+`5]}`))
	var ae *ArgError
	if err := list.Validate(args); !errors.As(err, &ae) || !strings.Contains(ae.Rule, "anyOf") {
		t.Errorf("a list of 100,001 values with a bad one: %v", err)
	}
	nested := schemaTool(t, anyJSONSchema)
	args, _ = ParseJSONArgs("demo", []byte(`{"a":`+strings.Repeat(`{"k":[`, 40)+`"x"`+strings.Repeat("]}", 40)+`}`))
	if err := nested.Validate(args); err != nil {
		t.Errorf("a value 80 deep: %v", err)
	}
	tree := schemaTool(t, `{"$defs":{"n":{"type":"array","items":{"$ref":"#/$defs/n"}}},"properties":{"a":{"$ref":"#/$defs/n"}}}`)
	args, _ = ParseJSONArgs("demo", []byte(`{"a":`+nestedArrays(300)+`}`))
	if err := tree.Validate(args); err != nil {
		t.Errorf("arrays 300 deep: %v", err)
	}
}

// $schema spellings jsonschema-go does not know exactly made every check fail
// with "cannot validate version", blocking every call.
func TestDraftSpellings(t *testing.T) {
	t.Parallel()
	for _, uri := range []string{"http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema#",
		"https://json-schema.org/draft/2020-12/schema#", "http://json-schema.org/draft-07/schema#"} {
		tool := schemaTool(t, `{"$schema":"`+uri+`","type":"object","properties":{"n":{"type":"integer"}}}`)
		if err := tool.Validate(map[string]any{"n": 1.0}); err != nil {
			t.Errorf("%s: valid arguments: %v", uri, err)
		}
		if err := tool.Validate(map[string]any{"n": "x"}); err == nil {
			t.Errorf("%s: invalid arguments passed", uri)
		}
		if n := tool.SchemaNotice(); n != "" {
			t.Errorf("%s: notice %q", uri, n)
		}
	}
}

// The guard must see every subschema jsonschema-go validates with; a new
// schema-valued field in a jsonschema-go upgrade must be added to its lists.
func TestEverySubschemaFieldIsKnown(t *testing.T) {
	t.Parallel()
	var s jsonschema.Schema
	v := reflect.ValueOf(&s).Elem()
	fields := 0
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Type() {
		case reflect.TypeFor[*jsonschema.Schema]():
			f.Set(reflect.ValueOf(&jsonschema.Schema{}))
		case reflect.TypeFor[[]*jsonschema.Schema]():
			f.Set(reflect.ValueOf([]*jsonschema.Schema{{}}))
		case reflect.TypeFor[map[string]*jsonschema.Schema]():
			f.Set(reflect.ValueOf(map[string]*jsonschema.Schema{"k": {}}))
		default:
			continue
		}
		fields++
	}
	seen := 0
	eachSubschema(&s, func(kw, key string, c *jsonschema.Schema) { seen++ })
	if seen != fields || fields < 23 {
		t.Errorf("eachSubschema saw %d subschemas; jsonschema.Schema has %d schema-valued fields", seen, fields)
	}
}

// A tool's schemas are compiled once and then shared: the TUI may check
// arguments while the audit pane checks examples.
func TestValidateConcurrently(t *testing.T) {
	t.Parallel()
	tool := schemaTool(t, anyJSONSchema)
	type result struct {
		i   int
		err error
	}
	done := make(chan result)
	for i := range 8 {
		go func() {
			args := map[string]any{"a": []any{map[string]any{"k": "v"}}}
			if i%2 == 0 {
				args["a"] = true // neither string, number, object nor array
			}
			done <- result{i, tool.Validate(args)}
		}()
	}
	for range 8 {
		r := <-done
		var ae *ArgError
		switch {
		case r.i%2 == 0 && (!errors.As(r.err, &ae) || ae.SchemaPath != "/$defs/v" || !strings.Contains(ae.Rule, "anyOf")):
			t.Errorf("goroutine %d: a boolean: Validate = %v, want an ArgError on /$defs/v's anyOf", r.i, r.err)
		case r.i%2 == 1 && r.err != nil:
			t.Errorf("goroutine %d: a valid list: Validate = %v", r.i, r.err)
		}
	}
}
