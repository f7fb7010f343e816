package client

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRefusedCallNeverReachesServer(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	var recorded []*Outcome
	s, err := Connect(context.Background(), Target{Name: "counting", Kind: KindInProcess, InProcess: c.srv, Trust: policy.Trusted},
		&Options{Recorder: func(o *Outcome) error { recorded = append(recorded, o); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	rm := mustTool(t, s, "rm")
	o, err := s.Do(context.Background(), &Call{Tool: rm, Args: map[string]any{"text": "x"}, Mode: policy.Batch})
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != StatusRefused || c.executions("rm") != 0 {
		t.Fatalf("status %s, executions %d: a refused call must not run", o.Status, c.executions("rm"))
	}
	var re *RefusedError
	if !errors.As(o.Err, &re) || o.Need != policy.NeedApproval || strings.Contains(o.Reason, "--") {
		t.Errorf("err %v reason %q", o.Err, o.Reason)
	}
	o, _ = s.Do(context.Background(), &Call{Tool: rm, Args: map[string]any{"text": "x"}, Mode: policy.Batch, Preapproved: true})
	if o.Status != StatusOK || c.executions("rm") != 1 || o.ApprovedBy != policy.ByCaller {
		t.Fatalf("with --yes: status %s executions %d by %s", o.Status, c.executions("rm"), o.ApprovedBy)
	}
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "add"), Args: map[string]any{"text": "x"}, Mode: policy.Batch, OnlyReadOnly: true, Preapproved: true})
	if o.Status != StatusRefused || c.executions("add") != 0 {
		t.Fatalf("--read-only let add run: %s", o.Status)
	}
	if len(recorded) != 3 {
		t.Errorf("recorded %d outcomes, want 3 (refusals too)", len(recorded))
	}
}

func TestInvalidArgumentsAreNotSent(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	s := connectCounting(t, c)
	get := mustTool(t, s, "get")
	_, err := s.Do(context.Background(), &Call{Tool: get, Args: map[string]any{"text": 5}, Mode: policy.Batch})
	var ae *ArgError
	if !errors.As(err, &ae) || ae.Arg != "text" || !strings.Contains(ae.Rule, "type") {
		t.Fatalf("err = %v, want an ArgError for text's type", err)
	}
	if c.executions("get") != 0 {
		t.Fatal("an invalid call reached the server")
	}
}

func TestCallResultsAndToolErrors(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	s := connectCounting(t, c)
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get"), Args: map[string]any{"text": "hi"}, Mode: policy.Batch})
	if o.Status != StatusOK || string(o.StructuredContent) != `{"echo":"hi"}` || o.ResultSize == 0 || len(o.Attempts) != 1 {
		t.Errorf("get: %+v", o)
	}
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "fail"), Args: map[string]any{"text": "hi"}, Mode: policy.Batch})
	if o.Status != StatusToolError || !o.IsError || c.executions("fail") != 1 {
		t.Errorf("fail: status %s isError %v executions %d", o.Status, o.IsError, c.executions("fail"))
	}
	if !strings.Contains(o.Result.Content[0].Text, "the tool says no") {
		t.Errorf("fail content: %+v", o.Result.Content)
	}
}

func TestProgressAndTimeoutReset(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	c.slowDelay.Store(int64(250 * time.Millisecond))
	s := connectCounting(t, c)
	slow := mustTool(t, s, "slow")
	var got atomic.Int32
	// 28 steps of 250ms take 7s, longer than the 5s timeout: only the restart
	// on every progress notification lets it finish in one attempt. The
	// 4.75s between a step and the timeout absorb a loaded machine's stalls
	// (with 1.75s, a -race run of the whole suite at load 4-8 timed out and
	// retried; with 0.4s, one at load 10). The test waits, it does not work.
	o, _ := s.Do(context.Background(), &Call{Tool: slow, Args: map[string]any{"steps": 28}, Mode: policy.Batch,
		Timeout: 5 * time.Second, OnProgress: func(Progress) { got.Add(1) }})
	if o.Status != StatusOK || len(o.Attempts) != 1 || !eventually(func() bool { return got.Load() == 28 }) {
		t.Fatalf("status %s (%s), attempts %d, progress %d", o.Status, o.Error, len(o.Attempts), got.Load())
	}
}

func TestTimeoutWithoutProgress(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	c.slowDelay.Store(int64(time.Minute))
	s := connectCounting(t, c)
	// slow is read-only, so each timed-out attempt is sent again, up to the
	// budget. Each attempt has a second to reach the tool's handler before
	// its timeout cancels it: at 50ms, a stall of a loaded -race run let one
	// be cancelled first, and the server then never ran it.
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "slow"), Args: map[string]any{"steps": 1}, Mode: policy.Batch,
		Timeout: time.Second, Attempts: 3})
	var ce *CallError
	if o.Status != StatusFailed || !errors.As(o.Err, &ce) || ce.Failure != policy.Timeout || len(o.Attempts) != 3 {
		t.Fatalf("status %s err %v attempts %d", o.Status, o.Err, len(o.Attempts))
	}
	if !strings.Contains(o.Error, "no answer or progress within 1s") || !strings.Contains(o.Error, "gave up after 3 attempts") {
		t.Errorf("error %q", o.Error)
	}
	if !eventually(func() bool { return c.executions("slow") == 3 }) {
		t.Errorf("server saw %d executions, want 3", c.executions("slow"))
	}
}

func TestHardLimitIgnoresProgress(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	c.slowDelay.Store(int64(20 * time.Millisecond))
	s := connectCounting(t, c)
	// 100 steps of 20ms: progress every 20ms for 2s. The timeout is far
	// beyond both the hard limit and the work: a stall of a loaded -race run
	// that outlasts both bounds must not let the timeout win (at 1s, one
	// did), and were progress to restart the hard limit, the call would end
	// ok after 2s.
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "slow"), Args: map[string]any{"steps": 100}, Mode: policy.Batch,
		Timeout: 30 * time.Second, MaxDuration: 150 * time.Millisecond, Attempts: 1})
	if o.Status != StatusFailed || !strings.Contains(o.Error, "hard limit of 150ms") {
		t.Fatalf("status %s error %q", o.Status, o.Error)
	}
}

func TestCancelledCall(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	c.slowDelay.Store(int64(time.Second))
	s := connectCounting(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once the server runs the call: cancelled before it was sent, a
	// call has nothing to tell the server (a fixed 50ms did that under load).
	go func() {
		eventually(func() bool { return c.executions("slow") == 1 })
		cancel()
	}()
	o, _ := s.Do(ctx, &Call{Tool: mustTool(t, s, "slow"), Args: map[string]any{"steps": 1}, Mode: policy.Batch})
	if o.Status != StatusCancelled || len(o.Attempts) != 1 {
		t.Fatalf("status %s attempts %d, want cancelled after 1", o.Status, len(o.Attempts))
	}
	if !eventually(func() bool { return c.cancelled.Load() == 1 }) {
		t.Error("the server was not told the call was cancelled")
	}
}

func TestUnknownContentTypeDegrades(t *testing.T) {
	t.Parallel()
	s, err := Connect(context.Background(), fakeTarget(t, "content"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "mixed"), Mode: policy.Batch})
	if o.Status != StatusOK || len(o.Result.Content) != 3 {
		t.Fatalf("status %s err %s content %+v", o.Status, o.Error, o.Result)
	}
	if sum := o.Result.Content[1].Summary(); !strings.Contains(sum, `"hologram"`) {
		t.Errorf("unknown block summary %q", sum)
	}
	if sum := o.Result.Content[2].Summary(); sum != "[image image/png, 3 B]" {
		t.Errorf("image summary %q", sum)
	}
}

func TestServerCrashMidCallIsAFailureWithItsLastWords(t *testing.T) {
	t.Parallel()
	s, err := Connect(context.Background(), fakeTarget(t, "content"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.ListTools(context.Background())
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "crash"), Mode: policy.Batch, Timeout: 5 * time.Second})
	if o.Status != StatusFailed {
		t.Fatalf("status %s", o.Status)
	}
	deadline := time.Now().Add(testBound)
	for time.Now().Before(deadline) && !strings.Contains(strings.Join(s.StderrTail(5), "\n"), "simulated crash") {
		time.Sleep(10 * time.Millisecond)
	}
	if tail := strings.Join(s.StderrTail(5), "\n"); !strings.Contains(tail, "simulated crash") {
		t.Errorf("stderr tail %q", tail)
	}
}

func TestStructuredContentIsCheckedAgainstTheOutputSchema(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	bad := map[string]any{"type": "object", "properties": map[string]any{"total": map[string]any{"type": "integer"}}, "required": []any{"total"}}
	c.srv.AddTool(&mcp.Tool{Name: "wrong_shape", InputSchema: map[string]any{"type": "object"}, OutputSchema: bad},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: map[string]any{"total": "many"}, Content: []mcp.Content{&mcp.TextContent{Text: "many"}}}, nil
		})
	c.srv.AddTool(&mcp.Tool{Name: "no_structure", InputSchema: map[string]any{"type": "object"}, OutputSchema: bad},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "3"}}}, nil
		})
	s := connectCounting(t, c)
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "wrong_shape"), Mode: policy.Batch, Preapproved: true})
	if o.Status != StatusOK || !strings.Contains(o.OutputSchemaError, "structuredContent.total does not match the output schema") || o.Result == nil {
		t.Errorf("wrong_shape: status %s, schema error %q: the result must be kept and flagged", o.Status, o.OutputSchemaError)
	}
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "no_structure"), Mode: policy.Batch, Preapproved: true})
	if !strings.Contains(o.OutputSchemaError, "sent no structuredContent") {
		t.Errorf("no_structure: %q", o.OutputSchemaError)
	}
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get"), Args: map[string]any{"text": "x"}, Mode: policy.Batch})
	if o.OutputSchemaError != "" {
		t.Errorf("a conforming result was flagged: %q", o.OutputSchemaError)
	}
}
