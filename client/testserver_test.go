package client

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countingServer is a go-sdk server whose handlers count their executions, so
// tests assert side effects on the server, not on mcpsh's own account of them.
type countingServer struct {
	srv   *mcp.Server
	mu    sync.Mutex
	count map[string]int
	// slowDelay is how long "slow" sleeps between progress notifications.
	slowDelay atomic.Int64
	// failFirst is how many executions of the flaky tools fail with a server error.
	failFirst atomic.Int64
	// cancelled counts slow calls the server saw cancelled.
	cancelled atomic.Int32
}

func (c *countingServer) hit(name string) {
	c.mu.Lock()
	c.count[name]++
	c.mu.Unlock()
}

func (c *countingServer) executions(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count[name]
}

type textIn struct {
	Text string `json:"text" jsonschema:"the text"`
}
type slowIn struct {
	Steps int `json:"steps"`
}
type out struct {
	Echo string `json:"echo"`
}

func ptr(b bool) *bool { return &b }

func newCountingServer() *countingServer {
	c := &countingServer{count: map[string]int{}}
	c.slowDelay.Store(int64(20 * time.Millisecond))
	c.srv = mcp.NewServer(&mcp.Implementation{Name: "counting", Version: "1"}, nil)
	echo := func(name string) mcp.ToolHandlerFor[textIn, out] {
		return func(_ context.Context, _ *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, out, error) {
			c.hit(name)
			return nil, out{Echo: in.Text}, nil
		}
	}
	mcp.AddTool(c.srv, &mcp.Tool{Name: "get", Title: "Get", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}}, echo("get"))
	mcp.AddTool(c.srv, &mcp.Tool{Name: "add", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}}, echo("add"))
	mcp.AddTool(c.srv, &mcp.Tool{Name: "rm", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)}}, echo("rm"))
	mcp.AddTool(c.srv, &mcp.Tool{Name: "fail", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, textIn) (*mcp.CallToolResult, out, error) {
			c.hit("fail")
			return nil, out{}, errors.New("the tool says no")
		})
	mcp.AddTool(c.srv, &mcp.Tool{Name: "slow", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, out, error) {
			c.hit("slow")
			for i := 1; i <= in.Steps; i++ {
				select {
				case <-ctx.Done():
					c.cancelled.Add(1)
					return nil, out{}, ctx.Err()
				case <-time.After(time.Duration(c.slowDelay.Load())):
				}
				if tok := req.Params.GetProgressToken(); tok != nil {
					req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: float64(in.Steps), Message: "step"})
				}
			}
			return nil, out{Echo: "done"}, nil
		})
	// Raw handlers: a plain error reaches the client as a JSON-RPC error, the
	// "server error, may have run" case.
	flaky := func(name string) mcp.ToolHandler {
		return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			c.hit(name)
			if int64(c.executions(name)) <= c.failFirst.Load() {
				return nil, errors.New("backend unavailable")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "synced"}}}, nil
		}
	}
	obj := map[string]any{"type": "object"}
	c.srv.AddTool(&mcp.Tool{Name: "flaky_read", InputSchema: obj, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, flaky("flaky_read"))
	c.srv.AddTool(&mcp.Tool{Name: "flaky_idem", InputSchema: obj, Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true}}, flaky("flaky_idem"))
	c.srv.AddTool(&mcp.Tool{Name: "flaky_write", InputSchema: obj, Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)}}, flaky("flaky_write"))
	return c
}

func connectCounting(t *testing.T, c *countingServer) *Session {
	t.Helper()
	s, err := Connect(context.Background(), Target{Name: "counting", Kind: KindInProcess, InProcess: c.srv, Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

func mustTool(t *testing.T, s *Session, name string) *Tool {
	t.Helper()
	tool, ok := s.Tool(name)
	if !ok {
		t.Fatalf("tool %q not listed", name)
	}
	return tool
}
