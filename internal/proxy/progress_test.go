package proxy

import (
	"context"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/wait"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The spec has progress increase with each notification: a server whose
// progress goes back (1, 3, 2, 3, 4) does not make the proxy break that
// promise to the host, which hears 1, 3, 4.
func TestProgressThatGoesBackIsNotPassedOn(t *testing.T) {
	r := newRig(t, "proxy")
	progress := make(chan *mcp.ProgressNotificationParams, 8)
	cs := r.goHost("2025-11-25", &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { progress <- req.Params },
	})
	params := &mcp.CallToolParams{Name: "progress", Arguments: map[string]any{"after": "backwards"}}
	params.SetProgressToken("host-token")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	// The last value comes only after any the relay might wrongly pass on.
	for _, want := range []float64{1, 3, 4} {
		if p := wait.Recv(t, "progress", progress); p.Progress != want {
			t.Fatalf("the host heard progress %v, want %v", p.Progress, want)
		}
	}
}
