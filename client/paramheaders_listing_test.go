package client

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SEP-2243: a tool whose x-mcp-header annotation is invalid is left out of
// the listing, with a warning saying why, and the tools beside it stay
// usable. The go-sdk server refuses to serve such a tool itself, so the
// listing on the wire is rewritten, as a hostile server would send it.
func TestToolWithAnInvalidParamHeaderIsLeftOutItsNeighboursStay(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
	region := map[string]any{"type": "object", "properties": map[string]any{
		"region": map[string]any{"type": "string", "x-mcp-header": "Region"}}}
	echoTool(srv, "valid_tool", region)
	echoTool(srv, "plain", map[string]any{"type": "object"})
	// twin is listed twice: as served, and once more with a fault in front.
	// One definition that cannot be used leaves the name out.
	echoTool(srv, "twin", region)
	// Each placeholder turns into one kind of fault on the wire.
	for name, ph := range map[string]string{
		"bad_space": "SPACE", "bad_empty": "EMPTY", "bad_number": "NUMBER", "bad_twice": "TWICE", "bad_nested": "NESTED",
	} {
		echoTool(srv, name, map[string]any{"type": "object", "properties": map[string]any{
			"region": map[string]any{"type": "string", "x-mcp-header": "Region"},
			"other":  map[string]any{"type": "string", "x-placeholder": ph}}})
	}
	hs := &headerServer{headers: map[string]http.Header{}, rewrite: func(b []byte) []byte {
		return []byte(strings.NewReplacer(
			`"x-placeholder":"SPACE"`, `"x-mcp-header":"My Region"`,
			`"x-placeholder":"EMPTY"`, `"x-mcp-header":""`,
			`"type":"string","x-placeholder":"NUMBER"`, `"type":"number","x-mcp-header":"Score"`,
			`"x-placeholder":"TWICE"`, `"x-mcp-header":"region"`,
			`"type":"string","x-placeholder":"NESTED"`, `"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone:1"}}`,
			`"tools":[`, `"tools":[{"name":"twin","inputSchema":{"type":"object","properties":{"r":{"type":"boolean","x-mcp-header":"R\u0000"}}}},`,
		).Replace(string(b)))
	}}
	s, err := Connect(context.Background(), httpTarget(hs.start(t, srv)), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	l, err := s.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := s.ToolPage("")
	if bytes.Contains(page, []byte("x-placeholder")) || bytes.Count(page, []byte(`"name":"twin"`)) != 2 {
		t.Fatalf("the listing was not rewritten: %s", page)
	}
	var names []string
	for _, tool := range l.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "plain,valid_tool" && strings.Join(names, ",") != "valid_tool,plain" {
		t.Errorf("listed %v, want valid_tool and plain only", names)
	}
	for _, name := range []string{"bad_space", "bad_empty", "bad_number", "bad_twice", "bad_nested", "twin"} {
		if _, ok := s.Tool(name); ok {
			t.Errorf("%s: listed, and so callable", name)
		}
		found := false
		for _, w := range l.Warnings {
			found = found || strings.HasPrefix(w, "tool "+name+" left out: ") && strings.Contains(w, "x-mcp-header")
		}
		if !found {
			t.Errorf("%s: no warning says it was left out: %q", name, l.Warnings)
		}
	}
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "valid_tool"), Args: map[string]any{"region": "us-west1"},
		Mode: policy.Batch, Attempts: 1})
	if o.Status != StatusOK || hs.sent("valid_tool").Get("Mcp-Param-Region") != "us-west1" {
		t.Errorf("valid_tool: %s (%s), Mcp-Param-Region %q", o.Status, o.Error, hs.sent("valid_tool").Get("Mcp-Param-Region"))
	}
}
