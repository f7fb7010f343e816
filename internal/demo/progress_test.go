//lint:file-ignore SA1019 the demo shows SEP-2577's deprecated logging, which servers still send through the deprecation window

package demo

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notifications collects what slow_count sends. The handlers only push to
// buffered channels: SDK handlers must never block.
type notifications struct {
	progress chan *mcp.ProgressNotificationParams
	logs     chan *mcp.LoggingMessageParams
}

func watch() (*notifications, *mcp.ClientOptions) {
	n := &notifications{
		progress: make(chan *mcp.ProgressNotificationParams, 100),
		logs:     make(chan *mcp.LoggingMessageParams, 100),
	}
	return n, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case n.progress <- req.Params:
			default:
			}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			select {
			case n.logs <- req.Params:
			default:
			}
		},
	}
}

func next[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(2 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

func TestSlowCountProgress(t *testing.T) {
	n, opts := watch()
	cs := connect(t, New(), opts)
	if err := cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "slow_count", Arguments: map[string]any{"n": 3, "delay_ms": 1}}
	params.SetProgressToken("count-1")
	res, err := cs.CallTool(t.Context(), params)
	if err != nil || res.IsError {
		t.Fatalf("slow_count: %v %v", err, res)
	}
	for i := 1; i <= 3; i++ {
		p := next(t, n.progress, "progress")
		if p.ProgressToken != "count-1" || p.Progress != float64(i) || p.Total != 3 {
			t.Errorf("progress %d: %+v", i, p)
		}
	}
	for i := range 2 {
		if l := next(t, n.logs, "log message"); l.Level != "info" || l.Data == nil {
			t.Errorf("log %d: %+v", i, l)
		}
	}

	// Without a progress token there is nothing to report progress against.
	callOK(t, cs, "slow_count", map[string]any{"n": 2, "delay_ms": 1})
	select {
	case p := <-n.progress:
		t.Errorf("progress without a token: %+v", p)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestSlowCountCancel(t *testing.T) {
	s := New()
	n, opts := watch()
	cs := connect(t, s, opts)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		params := &mcp.CallToolParams{Name: "slow_count", Arguments: map[string]any{"n": 50, "delay_ms": 100}}
		params.SetProgressToken("count-2")
		_, err := cs.CallTool(ctx, params)
		done <- err
	}()
	next(t, n.progress, "first progress")
	cancel()
	if err := next(t, done, "the cancelled call to return"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call returned %v, want context.Canceled", err)
	}
	// The handler must stop too, long before its 5 s of counting is up.
	deadline := time.Now().Add(time.Second)
	for s.slowActive.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("slow_count still running a second after cancellation")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := s.Executions("slow_count"); got != 1 {
		t.Errorf("Executions(slow_count) = %d, want 1", got)
	}
}
