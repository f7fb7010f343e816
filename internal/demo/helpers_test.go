package demo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect runs s over in-memory transports and returns a client session on
// it, set up the way mcpsh connects: a pinned protocol version (no discover
// probe) and explicit, empty capabilities.
func connect(t *testing.T, s *Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectAt(t, s, opts, "2025-11-25")
}

// connectAt is connect at the protocol version given.
func connectAt(t *testing.T, s *Server, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	if opts.Capabilities == nil {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, opts)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// listTools returns the server's tools by name, failing on a second page
// (the demo's list is far below go-sdk's page size).
func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), &mcp.ListToolsParams{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if res.NextCursor != "" {
		t.Fatalf("tools/list paginated unexpectedly")
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	return tools
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	return res
}

// callOK calls a tool, requires a non-error result, and returns its text.
func callOK(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res := call(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s(%v) returned isError: %s", name, args, text(res))
	}
	return text(res)
}

// text joins a result's text blocks.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// toMap round-trips v through JSON, giving the plain map a schema validator
// expects.
func toMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
