// Command fastserver is the fast server of mcpsh's benchmark (internal/bench/compare.sh):
// a go-sdk stdio server whose tools answer with a constant and do nothing
// else, so that what a benchmark measures against it is the client's cost and
// go-sdk's, not the server's work (the demo server's takes about 1.3 ms a call).
//
//	fastserver
//
// Its tools: echo (read-only, answers "ok") and reset (destructive, answers
// "reset", resets nothing). Their input schema is an empty object, and the
// handlers are raw, so go-sdk does no validation beyond its own parsing. On
// its way out it appends its CPU time to $BENCH_SERVER_USAGE (see serverusage).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpsh/mcpsh/internal/e2e/baseline/serverusage"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := newServer().Run(ctx, &mcp.StdioTransport{})
	serverusage.Report()
	if err != nil && !(ctx.Err() != nil && errors.Is(err, ctx.Err())) {
		fmt.Fprintln(os.Stderr, "fastserver:", err)
		os.Exit(1)
	}
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fastserver", Version: "1"}, nil)
	schema := map[string]any{"type": "object"}
	no := false
	s.AddTool(&mcp.Tool{
		Name: "echo", Description: "Answers ok.", InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
	}, constant("ok"))
	yes := true
	s.AddTool(&mcp.Tool{
		Name: "reset", Description: "Answers reset; resets nothing.", InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &no},
	}, constant("reset"))
	return s
}

func constant(text string) mcp.ToolHandler {
	return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	}
}
