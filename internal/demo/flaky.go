package demo

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addFlakySync registers flaky_sync, the tool that exercises a client's
// retry logic. It fails transiently on two executions out of every three,
// and it is idempotent, so a careful client may retry it; compare add_note,
// which a client must never retry on its own.
//
// It uses a raw handler on purpose: a plain error from a raw handler reaches
// the client as a JSON-RPC error (like an overloaded backend would produce),
// whereas a typed handler's error would become an isError result, which is
// the tool's final answer and never worth retrying.
func (s *Server) addFlakySync() {
	s.addRawTool(&mcp.Tool{
		Name:        "flaky_sync",
		Description: "Saves a snapshot of the workspace to an in-memory sync store that fails with a JSON-RPC error on two calls out of three; idempotent, so retrying is safe.",
		InputSchema: schema(emptyInput),
		Annotations: &mcp.ToolAnnotations{Title: "Sync notes (flaky)", DestructiveHint: flag(false), IdempotentHint: true, OpenWorldHint: flag(false)},
	}, s.flakySync)
}

func (s *Server) flakySync(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if n := execution(ctx); n%3 != 0 {
		return nil, fmt.Errorf("sync backend temporarily unavailable (simulated, execution %d; every third one succeeds)", n)
	}
	live, archived, _ := s.notes.counts()
	return textResult("Synced %d notes and %d archived notes (simulated).", live, archived), nil
}
