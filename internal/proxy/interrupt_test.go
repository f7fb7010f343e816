package proxy

import (
	"context"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An interrupt (Serve's context ends, as at mcpsh's first SIGTERM) while a
// call waits on a server that never answers ends the proxy at once: the
// call is cancelled upstream (the server hears of it), logged as
// cancelled, and Serve returns, rather than every one waiting for the
// call's timeout.
func TestAnInterruptCancelsTheCallsInFlightAndEndsServe(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	cs := r.goHost("2025-11-25", nil)
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
		errc <- err
	}()
	wait.Until(t, "slow to reach the server", func() bool { return r.executions("slow") == 1 })
	r.cancel()
	if err := wait.Recv(t, "Serve to return after its context ended", r.served); err != nil {
		t.Errorf("Serve: %v", err)
	}
	r.served <- nil // for the cleanup
	wait.Until(t, "the server to hear of the cancellation", func() bool { return len(fixture.Lines(r.state, "cancelled")) == 1 })
	if o := r.logged(); len(o) != 1 || o[0].Status != client.StatusCancelled || r.executions("slow") != 1 {
		t.Fatalf("logged %+v, executions %d", o, r.executions("slow"))
	}
	if err := wait.Recv(t, "the host's call to end", errc); err == nil {
		t.Error("the host's call ended with no error")
	}
}
