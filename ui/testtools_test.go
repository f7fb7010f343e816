package ui

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testSession serves every tool in toolsJSON from an in-process server, the
// way mcpsh really gets tools, and returns a session that has listed them.
// Each tool is as on the wire: name, title, description, inputSchema and
// outputSchema (served verbatim, key order included; inputSchema defaults to
// {"type":"object"}), annotations (through mcp.ToolAnnotations, so only
// well-typed hints), and _meta (each entry verbatim, e.g. inputExamples).
// Calls answer with the text "ok". (ui/form's tests build single tools the
// same way.)
func testSession(t *testing.T, toolsJSON ...string) *client.Session {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	for _, tj := range toolsJSON {
		srv.AddTool(mcpTool(t, tj), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	}
	ctx := context.Background()
	s, err := client.Connect(ctx, client.Target{Name: "test", Kind: client.KindInProcess, InProcess: srv, Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

func mcpTool(t *testing.T, toolJSON string) *mcp.Tool {
	t.Helper()
	var w struct {
		Name         string                     `json:"name"`
		Title        string                     `json:"title"`
		Description  string                     `json:"description"`
		InputSchema  json.RawMessage            `json:"inputSchema"`
		OutputSchema json.RawMessage            `json:"outputSchema"`
		Annotations  *mcp.ToolAnnotations       `json:"annotations"`
		Meta         map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal([]byte(toolJSON), &w); err != nil {
		t.Fatalf("test tool JSON: %v", err)
	}
	tool := &mcp.Tool{Name: w.Name, Title: w.Title, Description: w.Description, Annotations: w.Annotations}
	tool.InputSchema = json.RawMessage(`{"type":"object"}`)
	if len(w.InputSchema) > 0 {
		tool.InputSchema = w.InputSchema
	}
	if len(w.OutputSchema) > 0 {
		tool.OutputSchema = w.OutputSchema
	}
	if len(w.Meta) > 0 {
		tool.Meta = mcp.Meta{}
		for k, v := range w.Meta {
			tool.Meta[k] = v
		}
	}
	return tool
}
