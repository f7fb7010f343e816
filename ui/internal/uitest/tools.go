package uitest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool builds a *client.Tool the way mcpsh really gets one: a go-sdk
// server in this process serves the tool and the client lists it. toolJSON is
// the tool as on the wire: name, title, description, inputSchema and
// outputSchema (served verbatim, key order included; inputSchema defaults to
// {"type":"object"}), annotations (through mcp.ToolAnnotations, so only
// well-typed hints), and _meta (each entry verbatim, e.g. inputExamples).
func Tool(t *testing.T, toolJSON string) *client.Tool {
	t.Helper()
	s := Session(t, toolJSON)
	tools := s.Tools()
	if len(tools) != 1 {
		t.Fatalf("listed %d tools, want 1", len(tools))
	}
	return tools[0]
}

// Session serves every tool in toolsJSON (see Tool) from an
// in-process server and returns a session that has listed them. Calls answer
// with the text "ok".
func Session(t *testing.T, toolsJSON ...string) *client.Session {
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
