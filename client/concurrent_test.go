package client

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// A proxy's host may make many calls at once on one session (the TUI makes
// one at a time). Run with -race.

func TestManyCallsAtOnceOnOneSession(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	s := connectCounting(t, c)
	get, add := mustTool(t, s, "get"), mustTool(t, s, "add")
	const n = 50
	var wg sync.WaitGroup
	outcomes := make([]*Outcome, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tool := get
			if i%2 == 1 {
				tool = add
			}
			o, err := s.Do(context.Background(), &Call{Tool: tool, Args: map[string]any{"text": fmt.Sprint(i)}, Mode: policy.Batch,
				OnProgress: func(Progress) {}})
			if err != nil {
				t.Error(err)
				return
			}
			outcomes[i] = o
		}()
	}
	wg.Wait()
	for i, o := range outcomes {
		if o == nil || o.Status != StatusOK || string(o.StructuredContent) != fmt.Sprintf(`{"echo":"%d"}`, i) {
			t.Fatalf("call %d: %+v", i, o)
		}
	}
	if c.executions("get") != n/2 || c.executions("add") != n/2 {
		t.Errorf("executions get %d add %d; want %d each", c.executions("get"), c.executions("add"), n/2)
	}
}

// The server dies under fifty calls in flight: each replay-safe one is
// sent again and answered once the session is back, after one restart,
// and a call that may have run and is not replay-safe is not sent again.
func TestManyCallsAtOnceAcrossARestart(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "proxy")
	s := connectFixture(t, target, nil)
	read, crash, write := mustTool(t, s, "read"), mustTool(t, s, "crash_read"), mustTool(t, s, "crash_write")
	const n = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[string]int{}
	do := func(tool *Tool, args map[string]any) *Outcome {
		o, err := s.Do(context.Background(), &Call{Tool: tool, Args: args, Mode: policy.Batch})
		if err != nil {
			t.Error(err)
			return nil
		}
		mu.Lock()
		statuses[tool.Name+" "+string(o.Status)]++
		if len(o.Attempts) > 1 {
			statuses[tool.Name+" retried"]++
		}
		mu.Unlock()
		return o
	}
	for range n {
		wg.Add(1)
		go func() { defer wg.Done(); do(read, map[string]any{"hold": true}) }()
	}
	// Every read is running on the server when it dies: held until the
	// crash, however long the fifty take to arrive on a busy machine.
	waitFor(t, "the reads to reach the server", func() bool { return fixture.CountIn(state, "executions", "read") == n })
	wg.Add(1)
	go func() { defer wg.Done(); do(crash, nil) }()
	wg.Wait()
	if statuses["read ok"] != n || statuses["read retried"] != n || statuses["crash_read ok"] != 1 {
		t.Fatalf("outcomes %v; want every read retried and ok, and crash_read ok", statuses)
	}
	if got := fixture.CountIn(state, "executions", "crash_read"); got != 2 {
		t.Errorf("crash_read ran %d times; want 2 (the crash, then the retry)", got)
	}
	if got := fixture.CountIn(state, "executions", "read"); got != 2*n {
		t.Errorf("read ran %d times; want %d (each, then its retry)", got, 2*n)
	}
	if s.Restarts() != 1 {
		t.Errorf("%d restarts; want 1 for one crash", s.Restarts())
	}
	// After the restart, a write that crashes is not replayed.
	if o := do(write, nil); o == nil || o.Status != StatusFailed || fixture.CountIn(state, "executions", "crash_write") != 1 {
		t.Fatalf("crash_write: %+v, executions %d; want failed, sent once", o, fixture.CountIn(state, "executions", "crash_write"))
	}
}
