package demo

import (
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFlakySync checks the failure pattern a retrying client relies on:
// executions 1 and 2 of every three fail with a JSON-RPC error (not an
// isError result), the third succeeds, and each one is counted.
func TestFlakySync(t *testing.T) {
	s := New()
	cs := connect(t, s, nil)
	for i := 1; i <= 6; i++ {
		// Fresh params every attempt: CallTool mutates them.
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "flaky_sync", Arguments: map[string]any{}})
		if i%3 != 0 {
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) {
				t.Fatalf("call %d: got (%v, %v), want a *jsonrpc.Error", i, res, err)
			}
			if !strings.Contains(rpcErr.Message, "temporarily unavailable") {
				t.Errorf("call %d: message %q", i, rpcErr.Message)
			}
			// go-sdk v1.8.0 sends a plain handler error with code 0, not
			// -32603: a client's retry classifier must treat code 0 as a
			// server error that may have run, not as a malformed request.
			if rpcErr.Code != 0 {
				t.Errorf("call %d: code %d; go-sdk's encoding of plain errors changed", i, rpcErr.Code)
			}
			continue
		}
		if err != nil || res.IsError {
			t.Fatalf("call %d: got (%v, %v), want success", i, res, err)
		}
		if got := s.Executions("flaky_sync"); got != i {
			t.Errorf("after call %d: Executions = %d", i, got)
		}
	}
}
