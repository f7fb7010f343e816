package demo

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addEcho registers the one tool with no annotations and no title. By the
// spec a client must then assume the worst (not read-only, destructive, not
// idempotent, open world) even though echo is harmless: the hints are the
// author's to give, and a client cannot read intent from a name.
func (s *Server) addEcho() {
	addTool(s, &mcp.Tool{
		Name:        "echo",
		Description: "Returns its text unchanged; harmless, but it declares no annotations, so clients must assume the worst.",
		InputSchema: schema(`{"type":"object","required":["text"],"properties":{
			"text":{"type":"string","description":"the text to send back"}}}`),
		Meta: examples(map[string]any{"text": "hello, mcpsh"}),
	}, s.echo)
}

type echoInput struct {
	Text string `json:"text"`
}

func (s *Server) echo(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
	return textResult("%s", in.Text), nil, nil
}
