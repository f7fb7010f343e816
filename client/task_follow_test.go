package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// How a followed task is timed, answered, cancelled and looked up (fixture
// scenarios tasks-augmented, protocol 2025-11-25, and tasks-hostile, the
// 2026-07-28 extension; raw JSON-RPC over stdio).

// taskSession connects to a tasks scenario with opts, the target changed
// by edit first.
func taskSession(t *testing.T, scenario string, opts *Options, edit func(*Target)) (*Session, string) {
	t.Helper()
	t.Parallel()
	target, state := fixtureTarget(t, scenario)
	if edit != nil {
		edit(&target)
	}
	if opts == nil {
		opts = &Options{}
	}
	opts.Name, opts.Version = "t", "1"
	return connectFixture(t, target, opts), state
}

// slowAnswerer accepts every form after wait, as a person who reads it
// first would.
func slowAnswerer(wait time.Duration) func(context.Context, *ElicitRequest) (*ElicitResponse, error) {
	return func(ctx context.Context, _ *ElicitRequest) (*ElicitResponse, error) {
		select {
		case <-time.After(wait):
			return &ElicitResponse{Action: ElicitAccept, Content: map[string]any{}}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// A person answering a task's question takes the time they take: the
// call's timeout bounds a task that does not move, not a person. The answer
// takes 4.5 s under a bound of 3 s, which leaves a loaded -race run seconds
// to bring the question and the end (at a bound of 1 s, stalls of over a
// second were seen elsewhere in such runs).
func TestTaskQuestionPausesTheTimeout(t *testing.T) {
	for _, tc := range []struct{ scenario, kind string }{
		{"tasks-augmented", "2025-11-25 (the request comes while tasks/result waits)"},
		{"tasks-hostile", "extension (inputRequests, tasks/update)"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			s, _ := taskSession(t, tc.scenario, &Options{Elicit: slowAnswerer(4500 * time.Millisecond)}, nil)
			o := callTask(t, s, "asks", &Call{Timeout: 3 * time.Second})
			if o.Status != StatusOK || o.Task == nil || o.Task.Status != TaskCompleted {
				t.Fatalf("%s: outcome %s: %s", tc.kind, o.Status, o.Error)
			}
		})
	}
}

// A timeout shorter than the server's poll interval: mcpsh asks before it
// judges the task stalled.
func TestTaskTimeoutShorterThanPollIntervalPollsFirst(t *testing.T) {
	s, state := taskSession(t, "tasks-augmented", nil, nil)
	// The server suggests 10s; the 4s timeout is polled within its half,
	// with 2s to spare for a loaded machine (1s, polled at 500ms, timed out
	// under -race in CI).
	o := callTask(t, s, "slow_poll", &Call{Timeout: 4 * time.Second})
	if o.Status != StatusOK || o.Result == nil || o.Task.Polls == 0 {
		t.Fatalf("outcome %s: %s (task %+v)", o.Status, o.Error, o.Task)
	}
	if n := fixture.CountIn(state, "cancels", "slow_poll"); n != 0 {
		t.Fatalf("a completed task was cancelled %d times", n)
	}
}

// The task ended as mcpsh gave up on it: what the server then reports is
// what became of it.
func TestTaskThatEndedWhenCancelledIsReportedAsItEnded(t *testing.T) {
	s, state := taskSession(t, "tasks-augmented", nil, nil)
	o := callTask(t, s, "done_on_cancel", &Call{Timeout: 400 * time.Millisecond})
	if o.Status != StatusOK || o.Result == nil || o.Task.Status != TaskCompleted {
		t.Fatalf("completed: outcome %s: %s (task %+v)", o.Status, o.Error, o.Task)
	}
	if len(o.Result.Content) == 0 || o.Result.Content[0].Text != "result of done_on_cancel" {
		t.Fatalf("completed: result %+v", o.Result.Content)
	}
	o = callTask(t, s, "failed_on_cancel", &Call{Timeout: 400 * time.Millisecond})
	if o.Status != StatusFailed || o.Task.Status != TaskFailed || !strings.Contains(o.Error, "it broke") || strings.Contains(o.Error, "cancelled") {
		t.Fatalf("failed: outcome %s: %s (task %+v)", o.Status, o.Error, o.Task)
	}
	if n := fixture.CountIn(state, "cancels", "done_on_cancel") + fixture.CountIn(state, "cancels", "failed_on_cancel"); n != 2 {
		t.Fatalf("the server heard %d tasks/cancel, want 2", n)
	}
}

// At 2025-11-25 the call's progress token stays in use for the task's
// life: progress after the task was created reaches the caller, and a task
// that reports progress is moving, however long its status stays the same.
// The task works for 7 s, reporting every 200 ms, under a bound of 4.5 s:
// it outlasts the bound only if progress counts as moving, and no stall of
// a loaded -race run (over a second: a bound of 1 s failed three runs in
// five) comes near it. The test waits, it does not work.
func TestTaskProgressAfterCreationKeepsItAlive(t *testing.T) {
	s, _ := taskSession(t, "tasks-augmented", nil, nil)
	var heard atomic.Int64
	o := callTask(t, s, "progress", &Call{Timeout: 4500 * time.Millisecond, OnProgress: func(Progress) { heard.Add(1) }})
	if o.Status != StatusOK || o.Task == nil || o.Task.Status != TaskCompleted {
		t.Fatalf("outcome %s: %s (task %+v)", o.Status, o.Error, o.Task)
	}
	if heard.Load() == 0 {
		t.Fatal("no progress reached the caller")
	}
}

// GetTask's errors carry the server's words without a credential the
// target holds, as a call's do.
func TestGetTaskErrorIsRedacted(t *testing.T) {
	s, _ := taskSession(t, "tasks-hostile", nil, func(tg *Target) { tg.Secrets = []string{fixture.TaskSecret} })
	_, err := s.GetTask(context.Background(), "leaky")
	if err == nil || !strings.Contains(err.Error(), "no taskId") {
		t.Fatalf("GetTask: %v", err)
	}
	if strings.Contains(err.Error(), fixture.TaskSecret) {
		t.Fatalf("the secret reached GetTask's error: %v", err)
	}
}

// A server that never answers a task request does not hold GetTask or
// CancelTask: the target's timeout bounds them, and the error names what
// did not come back.
func TestTaskLookupsAreBounded(t *testing.T) {
	for _, tc := range []struct {
		scenario, id, want string
		cancel             bool
	}{
		{"tasks-hostile", "silent", "did not answer tasks/get for task silent within 500ms", false},
		{"tasks-hostile", "silent", "did not answer tasks/get for task silent within 500ms", true},
		{"tasks-augmented", "silent_result", "did not answer tasks/result for task silent_result within 500ms", false},
	} {
		t.Run(fmt.Sprintf("%s/%s/cancel=%v", tc.scenario, tc.id, tc.cancel), func(t *testing.T) {
			s, _ := taskSession(t, tc.scenario, nil, func(tg *Target) { tg.Timeout = 500 * time.Millisecond })
			// Far longer than the bound: only a test that fails waits for it.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var err error
			if tc.cancel {
				_, err = s.CancelTask(ctx, tc.id)
			} else {
				_, err = s.GetTask(ctx, tc.id)
			}
			var te *TaskError
			if !errors.As(err, &te) || te.Failure != policy.Timeout || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a timeout naming %q", err, tc.want)
			}
		})
	}
}

// A task that asks only for what mcpsh cannot answer (here a completion,
// with no one to write it) fails at once, and is cancelled: nobody will
// answer it, however long the call waits.
func TestTaskMcpshCannotAnswerFailsAtOnce(t *testing.T) {
	s, state := taskSession(t, "tasks-hostile", nil, nil)
	o := callTask(t, s, "unanswerable", &Call{Timeout: 5 * time.Second})
	if o.Status != StatusFailed || !strings.Contains(o.Error, "sampling/createMessage") || strings.Contains(o.Error, "did not change within") {
		t.Fatalf("outcome %s: %s", o.Status, o.Error)
	}
	if n := fixture.CountIn(state, "cancels", "unanswerable"); n != 1 {
		t.Fatalf("the server heard %d tasks/cancel, want 1: %s", n, o.Error)
	}
}
