//lint:file-ignore SA1019 the demo shows SEP-2577's deprecated logging, which servers still send through the deprecation window

package demo

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addSlowCount registers slow_count, the tool that exercises a client's
// progress display, log pane and cancel key: it takes a while, reports every
// step, and stops as soon as the client cancels.
func (s *Server) addSlowCount() {
	addTool(s, &mcp.Tool{
		Name:        "slow_count",
		Title:       "Slow count",
		Description: "Counts to n with a pause before each step, reporting progress (when the call has a progress token) and logging at start and end; read-only, and it stops as soon as it is cancelled.",
		InputSchema: schema(`{"type":"object","properties":{
			"n":{"type":"integer","minimum":1,"maximum":50,"default":5,"description":"how far to count"},
			"delay_ms":{"type":"integer","minimum":0,"maximum":5000,"default":200,"description":"pause before each step, in milliseconds"}}}`),
		Annotations: readOnly(""),
		Meta:        examples(map[string]any{"n": 10}, map[string]any{"n": 20, "delay_ms": 500}),
	}, s.slowCount)
}

type slowCountInput struct {
	N       int `json:"n"`
	DelayMS int `json:"delay_ms"`
}

func (s *Server) slowCount(ctx context.Context, req *mcp.CallToolRequest, in slowCountInput) (*mcp.CallToolResult, any, error) {
	s.slowActive.Add(1)
	defer s.slowActive.Add(-1)

	n := in.N
	if n < 1 || n > 50 {
		n = 5
	}
	delay := time.Duration(min(max(in.DelayMS, 0), 5000)) * time.Millisecond
	token := req.Params.GetProgressToken()

	logTo(ctx, req, "info", fmt.Sprintf("slow_count: counting to %d, %v per step", n, delay))
	mark("counting to %d", n)
	timer := time.NewTimer(delay)
	defer timer.Stop()
	for i := 1; i <= n; i++ {
		select {
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("slow_count stopped at %d of %d: %w", i-1, n, ctx.Err())
		case <-timer.C:
		}
		if token != nil && req.Session != nil {
			// A failed notification must not fail the count: progress is a
			// courtesy, the result is what the caller asked for.
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(i),
				Total:         float64(n),
				Message:       fmt.Sprintf("%d of %d", i, n),
			})
		}
		mark("%d of %d", i, n)
		timer.Reset(delay)
	}
	logTo(ctx, req, "info", fmt.Sprintf("slow_count: reached %d", n))
	return textResult("Counted to %d.", n), nil, nil
}

// MarkEnv names a file slow_count appends a line to when it starts and after
// each step. Tests across a process boundary need it to act while a count is
// under way (a Ctrl-C, a killed server), which nothing else shows them: a
// batch mcpsh prints no progress off a terminal. Unset, nothing touches the disk.
const MarkEnv = "MCPSH_DEMO_SLOW_MARK"

func mark(format string, args ...any) {
	path := os.Getenv(MarkEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "slow_count: "+format+"\n", args...)
}

// logTo sends a notifications/message to the calling session. go-sdk sends
// nothing until the client has set a log level (logging/setLevel), so
// clients that want these must ask for them.
func logTo(ctx context.Context, req *mcp.CallToolRequest, level mcp.LoggingLevel, msg string) {
	if req == nil || req.Session == nil {
		return
	}
	_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: "mcpsh-demo", Data: msg})
}
