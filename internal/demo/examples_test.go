package demo

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resolve turns a schema as received by a client into a validator.
func resolve(t *testing.T, v any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("schema %s: %v", b, err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolving %s: %v", b, err)
	}
	return r
}

// TestInputExamplesValidate checks every _meta.inputExamples entry against
// its tool's input schema, as a careful client would before offering it.
func TestInputExamplesValidate(t *testing.T) {
	withExamples := 0
	for name, tool := range listTools(t, connect(t, New(), nil)) {
		raw, ok := tool.Meta["inputExamples"]
		if !ok {
			continue
		}
		list, ok := raw.([]any)
		if !ok || len(list) == 0 {
			t.Errorf("%s: inputExamples is %T %v, want a non-empty array", name, raw, raw)
			continue
		}
		withExamples++
		r := resolve(t, tool.InputSchema)
		for i, ex := range list {
			m, ok := ex.(map[string]any)
			if !ok {
				t.Errorf("%s example %d: %T, want an object", name, i, ex)
				continue
			}
			if err := r.Validate(m); err != nil {
				t.Errorf("%s example %d %v: %v", name, i, m, err)
			}
		}
	}
	if withExamples < 5 {
		t.Errorf("%d tools have examples, want at least 5", withExamples)
	}
}

// TestExampleCounts pins the examples the brief asks for.
func TestExampleCounts(t *testing.T) {
	tools := listTools(t, connect(t, New(), nil))
	for name, want := range map[string]int{"get_note": 2, "search_notes": 2, "add_note": 2, "tag_note": 2, "weather_forecast": 2} {
		if got, _ := tools[name].Meta["inputExamples"].([]any); len(got) != want {
			t.Errorf("%s: %d examples, want %d", name, len(got), want)
		}
	}
	want := `[{"content":"Milk, eggs, bread","title":"Buy groceries"},{"tags":["work"],"title":"Fix login bug"}]`
	if b, _ := json.Marshal(tools["add_note"].Meta["inputExamples"]); string(b) != want {
		t.Errorf("add_note examples %s, want %s", b, want)
	}
}

// TestExamplesRun calls every tool with each of its examples, each on a
// fresh workspace so the example ids exist, from a client that answers
// elicitation and sampling: an example that validates but fails at run time
// would teach the wrong thing.
func TestExamplesRun(t *testing.T) {
	for name, tool := range listTools(t, connect(t, New(), nil)) {
		list, _ := tool.Meta["inputExamples"].([]any)
		for i, ex := range list {
			args := ex.(map[string]any)
			if name == "slow_count" {
				args["delay_ms"] = 0 // keep the test fast
			}
			if res := call(t, connect(t, New(), answering("Groceries", "Weekly shop")), name, args); res.IsError {
				t.Errorf("%s example %d: isError: %s", name, i, text(res))
			}
		}
	}
}

func TestSearchStructuredContent(t *testing.T) {
	cs := connect(t, New(), nil)
	tool := listTools(t, cs)["search_notes"]
	if tool.OutputSchema == nil {
		t.Fatal("search_notes has no output schema")
	}
	out := resolve(t, tool.OutputSchema)

	for _, q := range []string{"release", "e", "no such thing"} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": q, "limit": 2}})
		if err != nil || res.IsError {
			t.Fatalf("search %q: %v %s", q, err, text(res))
		}
		sc := toMap(t, res.StructuredContent)
		if err := out.Validate(sc); err != nil {
			t.Errorf("search %q: structuredContent %v does not match the output schema: %v", q, sc, err)
		}
		if n := len(sc["matches"].([]any)); n > 2 || float64(n) > sc["total"].(float64) {
			t.Errorf("search %q: %d matches, total %v, limit 2", q, n, sc["total"])
		}
		if text(res) == "" {
			t.Errorf("search %q: no text rendering", q)
		}
	}
	sc := toMap(t, call(t, cs, "search_notes", map[string]any{"query": "RELEASE"}).StructuredContent)
	if sc["total"].(float64) != 1 {
		t.Errorf("case-insensitive search found %v notes, want 1", sc["total"])
	}
}
