//lint:file-ignore SA1019 the demo shows SEP-2577's deprecated logging, which servers still send through the deprecation window

// Package demo is the MCP server mcpsh opens with --demo (in process) and
// serves with serve-demo (over stdio or streamable HTTP).
//
// It is the first server a newcomer meets, so it is built to show every
// case of the tool annotations mcpsh acts on: read-only, additive,
// idempotent, destructive, destructive by default because a hint is left
// out, open world, and no annotations at all. The theme is an in-memory notes
// workspace plus a few simulated outside-world tools; nothing touches the
// network or the disk. Some tools exist only to exercise client machinery:
// progress and cancellation (slow_count), transient JSON-RPC errors
// (flaky_sync), mixed content (render_chart), tools/list_changed
// (toggle_extras), elicitation (rename_note) and sampling (suggest_title).
// Beyond tools it shows the rest of what a client meets: the notes as
// resources with a template and subscriptions (resources.go), prompts
// (prompts.go) and completion of their arguments (complete.go).
//
// Tests elsewhere in mcpsh assert side effects through [Server.Executions]
// rather than through screen text.
package demo

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// instructions is sent in the initialize result; hosts may show it to users
// or models.
const instructions = `mcpsh demo: an in-memory notes workspace. Nothing here touches the network or the disk; ` +
	`the weather and email tools are simulated. Every tool's annotations are deliberate: ` +
	`compare add_note (additive), tag_note (idempotent), delete_note (destructive), ` +
	`archive_notes (destructiveHint left out, so destructive by default) and echo (no annotations at all).`

// Server is one demo workspace and the go-sdk server that exposes it. The
// same Server may serve several sessions at once (over HTTP, say); they all
// see the same notes.
type Server struct {
	mcp   *mcp.Server
	notes *store
	now   func() time.Time

	mu     sync.Mutex
	execs  map[string]int
	outbox []message

	extrasMu sync.Mutex
	extras   bool // whether extra_stats is registered; guarded by extrasMu

	// pubMu guards what the resource list says of each note (published)
	// and the notes' generation it says it of (pubGen); see publish.
	pubMu     sync.Mutex
	published map[int]listed
	pubGen    int

	// slowActive counts slow_count handlers still running, so tests can
	// check that cancellation really stops them.
	slowActive atomic.Int32
}

// New returns a demo server with fresh state: three seed notes, an empty
// outbox, no executions counted.
func New() *Server {
	s := &Server{
		now:       time.Now,
		execs:     map[string]int{},
		published: map[int]listed{},
		pubGen:    -1,
	}
	s.notes = newStore(s.now)
	s.mcp = mcp.NewServer(&mcp.Implementation{
		Name:    "mcpsh-demo",
		Title:   "mcpsh demo notes workspace",
		Version: "1.0.0",
	}, &mcp.ServerOptions{
		Instructions: instructions,
		Capabilities: &mcp.ServerCapabilities{
			Logging: &mcp.LoggingCapabilities{},
			Tools:   &mcp.ToolCapabilities{ListChanged: true},
		},
		// go-sdk adds resources (listChanged, and subscribe with these
		// handlers), prompts (listChanged) and completions to these.
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.unsubscribe,
		CompletionHandler:  s.complete,
	})
	s.mcp.AddReceivingMiddleware(guard)
	s.addReadTools()
	s.addWriteTools()
	s.addWorldTools()
	s.addEcho()
	s.addSlowCount()
	s.addFlakySync()
	s.addRenderChart()
	s.addToggleExtras()
	s.addAskTools()
	s.addNoteResources()
	s.addPrompts()
	return s
}

// MCP returns the go-sdk server, for connecting it to a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Executions reports how many times the named tool's handler has run. It
// counts at handler entry, so calls that then fail (a flaky_sync outage, a
// bad note id) count too; calls the SDK rejects before the handler (unknown
// tool, arguments that fail the input schema) do not. A call that asks the
// client something at protocol 2026-07-28 runs once per round (asks.go).
func (s *Server) Executions(tool string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.execs[tool]
}

// count records one execution of tool and returns the new total.
func (s *Server) count(tool string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.execs[tool]++
	return s.execs[tool]
}

// addTool registers a typed tool whose handler is counted and cannot crash
// the server: a panic becomes an isError result, as any error returned by a
// typed handler does. Whatever the handler changed in the notes reaches the
// resource list and its subscribers on its way out (publish).
func addTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	name := t.Name
	mcp.AddTool(s.mcp, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		ctx = withExecution(ctx, s.count(name))
		defer s.publish(ctx)
		defer recoverInto(name, &err)
		return h(ctx, req, in)
	})
}

// addRawTool registers a tool with a raw handler. A plain error from such a
// handler reaches the client as a JSON-RPC error, not an isError result,
// which is what flaky_sync needs.
func (s *Server) addRawTool(t *mcp.Tool, h mcp.ToolHandler) {
	name := t.Name
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		ctx = withExecution(ctx, s.count(name))
		defer s.publish(ctx)
		defer recoverInto(name, &err)
		return h(ctx, req)
	})
}

type executionKey struct{}

// withExecution records in ctx which execution of its tool a handler is
// running. Handlers read it rather than calling Executions, which another
// call may already have moved on.
func withExecution(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, executionKey{}, n)
}

// execution returns the number withExecution stored, or 0.
func execution(ctx context.Context) int {
	n, _ := ctx.Value(executionKey{}).(int)
	return n
}

// recoverInto turns a handler panic into an error, so that no input can take
// the demo down (and the session with it).
func recoverInto(tool string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error: %v", tool, r)
	}
}

// textResult is the common single-text-block result.
func textResult(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}
