package client

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// Hostile server text, as it reaches mcpsh. fixture.Evil is JSON string
// content: its \u001b escapes decode to ESC in names and values. rawEvil goes
// into JSON literally, as a server may send it: a C1 CSI (which would eat
// mcpsh's words up to the next letter) and a right-to-left override.
const rawEvil = "\u009b31m\u202e"

// evil is both, for strings decoded from JSON.
const evil = fixture.Evil + rawEvil

// assertSafe fails when s carries anything a terminal acts on or reorders
// text by, or does not read want.
func assertSafe(t *testing.T, what, s, want string) {
	t.Helper()
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u200e' || r == '\u200f' ||
			(r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			t.Errorf("%s carries %U: %q", what, r, s)
			break
		}
	}
	if !strings.Contains(s, want) {
		t.Errorf("%s = %q, want it to say %q", what, s, want)
	}
}

func TestToolProblemsAreSafe(t *testing.T) {
	t.Parallel()
	tool, err := parseTool(json.RawMessage(`{"name":"t","title":{"x":"` + evil + `"},"description":["` + rawEvil + `"],` +
		`"annotations":{"readOnlyHint":"` + evil + `","destructiveHint":["` + rawEvil + `"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(tool.Problems) != 4 {
		t.Fatalf("problems %q", tool.Problems)
	}
	for _, p := range tool.Problems {
		assertSafe(t, "problem", p, "not a")
	}
	tool, _ = parseTool(json.RawMessage(`{"name":"u","annotations":"` + rawEvil + `"}`))
	assertSafe(t, "annotations problem", strings.Join(tool.Problems, ""), "not an object")
	_, err = parseTool(json.RawMessage(`{"title":"` + rawEvil + `"}`))
	assertSafe(t, "nameless tool", err.Error(), "tool has no name")
}

func TestArgErrorsAreSafe(t *testing.T) {
	t.Parallel()
	schema := `{"type":"object","properties":{
		"k` + evil + `":{"type":"string","enum":["a` + evil + `"]},
		"p":{"type":"string","pattern":"^x\u001b]0;t\u0007` + rawEvil + `$"},
		"c":{"const":"c` + evil + `"},
		"n":{"type":"integer"},
		"id":{"$id":"https://example.com/` + rawEvil + `","type":"integer"}
	},"required":["r` + evil + `"],"additionalProperties":false}`
	tool, err := parseTool(json.RawMessage(`{"name":"get` + evil + `","inputSchema":` + schema + `,"outputSchema":` + schema + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if in, out := tool.SchemaErrors(); in != nil || out != nil {
		t.Fatal(in, out)
	}
	decoded := func(s string) string {
		var v string
		if err := json.Unmarshal([]byte(`"`+s+`"`), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	r := decoded("r" + evil)
	tests := []struct {
		args map[string]any
		rule string
	}{
		{map[string]any{r: 1, decoded("k" + evil): "b"}, "enum"},
		{map[string]any{r: 1, "p": "y"}, "pattern"},
		{map[string]any{r: 1, "c": "d"}, "const"},
		{map[string]any{r: 1, "n": "v" + decoded(evil)}, "has type"},
		{map[string]any{r: 1, "id": "x"}, "type"},
		{map[string]any{}, "required but missing"},
		{map[string]any{r: 1, decoded("x" + evil): 1}, "not an argument this tool accepts"},
	}
	for _, tt := range tests {
		err := tool.Validate(tt.args)
		var ae *ArgError
		if !errors.As(err, &ae) {
			t.Errorf("Validate(%q) = %v, want an ArgError", tt.args, err)
			continue
		}
		assertSafe(t, "Error()", ae.Error(), tt.rule)
		assertSafe(t, "Rule", ae.Rule, tt.rule)
		assertSafe(t, "Arg", ae.Arg, "")
		assertSafe(t, "SchemaPath", ae.SchemaPath, "")
		assertSafe(t, "Tool", ae.Tool, "get")
		b, _ := json.Marshal(tt.args)
		err = tool.ValidateOutput(b)
		if err == nil {
			t.Errorf("ValidateOutput(%s) passed", b)
			continue
		}
		assertSafe(t, "ValidateOutput", err.Error(), "does not match the output schema")
	}
}

func TestSchemaMessagesAreSafe(t *testing.T) {
	t.Parallel()
	tests := []struct{ schema, want string }{
		{`{"$schema":"http://example.com/` + evil + `","type":"object"}`, "which mcpsh does not know"},
		{`{"properties":{"p` + rawEvil + `":{"allOf":[{"$ref":"#/properties/p` + rawEvil + `"}]}}}`, "leads back to"},
		{`{"properties":{"p":{"$ref":"#/$defs/` + evil + `"}}}`, "$ref at /properties/p/$ref"},
		{`{"properties":{"p":{"type":"string","pattern":"(` + evil + `"}}}`, "does not compile"},
		{`{"$id":"https://example.com/` + rawEvil + `#frag","type":"object"}`, "input schema"},
		{`{"type":"object","properties":{"p":{"minLength":"` + evil + `"}}}`, "does not parse"},
		{`{"type":5` + rawEvil + `}`, "does not parse"},
	}
	for _, tt := range tests {
		tool, err := parseTool(json.RawMessage(`{"name":"get` + evil + `","inputSchema":` + tt.schema + `}`))
		if err != nil {
			// a schema that is not JSON spoils the tool list, not the tool
			tool = &Tool{Name: "get" + rawEvil, InputSchema: json.RawMessage(tt.schema)}
		}
		n := tool.SchemaNotice()
		assertSafe(t, "notice for "+tt.schema, n, tt.want)
		if in, _ := tool.SchemaErrors(); in != nil {
			assertSafe(t, "schema error for "+tt.schema, in.Error(), tt.want)
		}
	}
}

func TestUsageErrorsAreSafe(t *testing.T) {
	t.Parallel()
	tool := &Tool{Name: "get" + fixture.Evil + rawEvil, InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}
	for _, argv := range [][]string{{"oops"}, {"n=1", "n=2"}, {"n=x"}, {`{"a":`}, {`[1]`}, {`{} {}`}} {
		if argv[0] == `[1]` {
			_, err := ParseJSONArgs(tool.Name, []byte(argv[0]))
			assertSafe(t, "ParseJSONArgs", err.Error(), "must be a JSON object")
			continue
		}
		_, err := tool.ParseArgs(argv)
		if err == nil {
			t.Errorf("ParseArgs(%q) passed", argv)
			continue
		}
		assertSafe(t, "ParseArgs", err.Error(), "get")
	}
}

func TestResultMessagesAreSafe(t *testing.T) {
	t.Parallel()
	r, err := parseResult(json.RawMessage(`{"isError":"` + rawEvil + `","content":[
		{"type":"holo` + evil + `","shape":"` + rawEvil + `"},
		"` + rawEvil + `",
		{"type":"resource_link","name":"n` + evil + `","uri":"file:///` + evil + `"},
		{"type":"resource_link","uri":"file:///` + evil + `"},
		{"type":"image","data":"AAAA","mimeType":"image/` + evil + `"},
		{"type":"resource","resource":{"uri":"file:///` + evil + `","mimeType":"text/` + evil + `","blob":"AAAA"}},
		{"type":"resource","resource":{"uri":"file:///` + evil + `","mimeType":"text/` + evil + `","text":"body"}}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	assertSafe(t, "problems", strings.Join(r.Problems, " "), "not a boolean")
	words := []string{"that mcpsh does not know", "cannot read", "[resource link n", "[resource link file:///", "[image image/", "[resource file:///", "[resource file:///"}
	for i, b := range r.Content {
		sum := b.Summary()
		if b.Type == "resource" {
			sum, _, _ = strings.Cut(sum, "\n") // the text after the header is content
		}
		assertSafe(t, "summary of "+b.Type, sum, words[i])
	}
	_, err = parseResult(json.RawMessage(`"` + rawEvil + `"`))
	assertSafe(t, "parse error", err.Error(), "not a JSON object")
}
