package client

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// unsafeRune returns the first rune in s a terminal would act on or reorder
// text by (newlines and tabs allowed when multiline), or -1.
func unsafeRune(s string, multiline bool) rune {
	for _, r := range s {
		switch {
		case multiline && (r == '\n' || r == '\t'):
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == '\u200e', r == '\u200f',
			r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
			return r
		}
	}
	return -1
}

func assertFuzzSafe(t *testing.T, what, s string) {
	t.Helper()
	if r := unsafeRune(s, false); r >= 0 {
		t.Fatalf("%s carries %U: %q", what, r, s)
	}
}

// schemaMessages checks what mcpsh says about a tool's schemas.
func schemaMessages(t *testing.T, tool *Tool) {
	t.Helper()
	in, out := tool.SchemaErrors()
	for _, err := range []error{in, out} {
		var se *SchemaError
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("schema error %v is a %T, want *SchemaError", err, err)
		}
		if err != nil {
			assertFuzzSafe(t, "schema error", err.Error())
		}
	}
	assertFuzzSafe(t, "schema notice", tool.SchemaNotice())
}

func checkArgError(t *testing.T, err error) {
	t.Helper()
	var ae *ArgError
	if errors.As(err, &ae) {
		assertFuzzSafe(t, "ArgError", ae.Error())
	}
}

// checkDepthEstimate compares the cost walk with jsonschema-go itself: the
// walk must see at least as many nested subschemas as the validator's error
// names, one "validating <schema>: " for each on the way to the failure.
func checkDepthEstimate(t *testing.T, tool *Tool, args map[string]any) {
	t.Helper()
	in := tool.schemas.input
	if in == nil || strings.Contains(string(tool.InputSchema), "$id") { // an $id may look like a prefix
		return
	}
	w := &costWalk{g: in.g, limit: maxCheckSteps, printed: map[printKey]int64{}}
	w.walk(reflect.ValueOf(args), in.g.root)
	if w.err != nil {
		return
	}
	err := in.r.Validate(args)
	if err == nil {
		return
	}
	depth, msg := 0, err.Error()
	for m := validatingPrefix().FindStringSubmatch(msg); m != nil; m = validatingPrefix().FindStringSubmatch(msg) {
		depth++
		msg = msg[len(m[0]):]
	}
	if depth > w.deepest {
		t.Fatalf("the validator went %d subschemas deep, the cost walk saw %d: %v", depth, w.deepest, err)
	}
}

var fuzzSchemas = []string{
	argSchema,
	`{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#"}}}}`,
	`{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`,
	`{"$id":"https://example.com/tree","$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}`,
	`{"type":"object","properties":{"k` + evil + `":{"enum":["a` + evil + `"]}},"required":["r` + evil + `"]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema","items":[{"type":"string"}],"additionalItems":{"$ref":"#"}}`,
	`{"if":{"type":"object"},"then":{"properties":{"a":{"$ref":"#"}}},"else":{"items":{"$ref":"#"}}}`,
}

func FuzzParseArgs(f *testing.F) {
	for _, s := range fuzzSchemas {
		f.Add(s, "title=x\x00count=3\x00tags=a,b")
		f.Add(s, `{"children":[{"children":[]}],"a":[[[1]]]}`)
	}
	for _, rs := range recursiveSchemas {
		f.Add(rs.schema, "a=1")
	}
	f.Add(`{"properties":{"n":{"anyOf":[{"type":"integer"},{"type":"array","items":{"type":"boolean"}}]}}}`, "n=true,false")
	f.Add(`{"properties":{"e":{"type":"string"}}}`, "e="+evil)
	f.Fuzz(func(t *testing.T, schema, argv string) {
		tool := &Tool{Name: "fuzz" + rawEvil, InputSchema: json.RawMessage(schema)}
		var parts []string
		if argv != "" {
			parts = strings.Split(argv, "\x00")
		}
		args, err := tool.ParseArgs(parts)
		if err == nil {
			checkArgError(t, tool.Validate(args))
		}
		checkArgError(t, tool.Validate(nil))
		schemaMessages(t, tool)
		for _, p := range parts {
			k, v, _ := strings.Cut(p, "=")
			_, _ = tool.ParseValue(k, v, strings.HasSuffix(k, ":"))
		}
	})
}

func FuzzSchemaGuard(f *testing.F) {
	for _, s := range fuzzSchemas {
		f.Add(s, `{"children":[{"children":[]}],"next":{"next":{}},"kids":[{"kids":[]}]}`)
	}
	for _, rs := range recursiveSchemas {
		f.Add(rs.schema, `{"a":[1,{"b":2}]}`)
	}
	f.Add(`{"properties":{"a":{"$ref":"#/$defs/t"}},"$defs":{"t":{"items":{"allOf":[{"$ref":"#/$defs/t"},{"$ref":"#/$defs/t"}]}}}}`,
		`{"a":`+nestedArrays(30)+`}`)
	f.Fuzz(func(t *testing.T, schema, value string) {
		tool := &Tool{Name: "fuzz", InputSchema: json.RawMessage(schema), OutputSchema: json.RawMessage(schema)}
		schemaMessages(t, tool)
		var args map[string]any
		if json.Unmarshal([]byte(value), &args) == nil {
			checkArgError(t, tool.Validate(args))
			checkDepthEstimate(t, tool, args)
		}
		if err := tool.ValidateOutput(json.RawMessage(value)); err != nil {
			assertFuzzSafe(t, "output error", err.Error())
		}
	})
}

func FuzzParseResult(f *testing.F) {
	f.Add(`{"content":[{"type":"text","text":"hi"},{"type":"hologram","shape":"cube"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"isError":false}`)
	f.Add(`{"content":[{"type":"resource","resource":{"uri":"file:///a","text":"x\ny"}},{"type":"resource_link","uri":"u","name":"n"},5,"s",null],"structuredContent":{"a":1},"isError":"yes"}`)
	f.Add(`{"content":{"type":"text"},"isError":null}`)
	f.Add(`{"content":[{"type":"x` + evil + `","name":"` + rawEvil + `"},"` + rawEvil + `"],"isError":"` + rawEvil + `"}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, raw string) {
		r, err := parseResult(json.RawMessage(raw))
		if err != nil {
			assertFuzzSafe(t, "parse error", err.Error())
			return
		}
		for _, p := range r.Problems {
			assertFuzzSafe(t, "problem", p)
		}
		for _, b := range r.Content {
			sum := b.Summary()
			switch b.Type {
			case "text":
				// the content itself, shown as content is
			case "resource":
				head, _, _ := strings.Cut(sum, "\n")
				if b.Text == "" {
					assertFuzzSafe(t, "resource summary", sum)
				} else {
					assertFuzzSafe(t, "resource summary", head)
				}
			default:
				assertFuzzSafe(t, b.Type+" summary", sum)
			}
		}
	})
}
