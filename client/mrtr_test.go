package client

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// On protocol 2026-07-28 a server asks for input inside a call's result
// (SEP-2322: an "input required" result, then the call is sent again with
// the answers). mcpsh's rounds (rounds.go) must put the request to mcpsh's
// answerer and send the answer in a form a go-sdk server reads; on
// 2025-11-25 the same server asks while the call is in flight, through
// go-sdk's handler.
func TestInputRequestsInsideACallReachTheHandler(t *testing.T) {
	t.Parallel()
	for _, version := range []string{LatestProtocol, "2025-11-25"} {
		srv := mcp.NewServer(&mcp.Implementation{Name: "asking", Version: "1"}, nil)
		runs := 0
		srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				runs++
				ask := &mcp.ElicitParams{Message: "name?", RequestedSchema: map[string]any{
					"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}}}
				var res *mcp.ElicitResult
				if version == LatestProtocol {
					// SEP-2322: ask in the result; the answer comes with the retried call.
					answer, ok := req.Params.InputResponses["name"].(*mcp.ElicitResult)
					if !ok {
						return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"name": ask}, RequestState: "asked"}, nil
					}
					res = answer
				} else {
					var err error
					if res, err = req.Session.Elicit(ctx, ask); err != nil {
						return nil, err
					}
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %v", res.Action, res.Content["name"])}}}, nil
			})
		asked := 0
		s, err := Connect(context.Background(), Target{Kind: KindInProcess, InProcess: srv, Trust: policy.Trusted}, &Options{
			ProtocolVersion: version,
			Elicit: func(_ context.Context, r *ElicitRequest) (*ElicitResponse, error) {
				asked++
				return &ElicitResponse{Action: ElicitAccept, Content: map[string]any{"name": "Ada"}}, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		s.ListTools(context.Background())
		o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "ask"), Mode: policy.Batch})
		s.Close()
		if o.Status != StatusOK || o.Result == nil || len(o.Result.Content) != 1 || o.Result.Content[0].Text != "accept Ada" || asked != 1 {
			t.Errorf("%s: status %s (%s), result %+v, asked %d", version, o.Status, o.Error, o.Result, asked)
		}
	}
}
