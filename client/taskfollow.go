package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Bounds on polling, whatever the server suggests: an interval of 0 would
// be a busy loop, one of a day would look like a hang. With no suggestion
// mcpsh polls once a second.
const (
	taskPollMin     = 100 * time.Millisecond
	taskPollMax     = 10 * time.Second
	taskPollDefault = time.Second
	// taskGetTries bounds the sends of one tasks/get that fails: it only
	// reads, so it may be sent again.
	taskGetTries = 4
	// taskCancelWait bounds tasks/cancel after the caller gave up.
	taskCancelWait = 5 * time.Second
)

// pollEvery is the wait before the next tasks/get.
func pollEvery(t Task) time.Duration {
	switch d := t.PollInterval; {
	case d == 0:
		return taskPollDefault
	case d < taskPollMin:
		return taskPollMin
	case d > taskPollMax:
		return taskPollMax
	default:
		return d
	}
}

// pollWait is the wait before the next tasks/get of a task followed with
// this timeout: the server's interval, but never so long that the timeout
// passes before mcpsh asked whether the task moved.
func pollWait(t Task, timeout time.Duration) time.Duration {
	d := pollEvery(t)
	if timeout > 0 && d > timeout/2 {
		d = max(timeout/2, time.Millisecond)
	}
	return d
}

// follower follows one task on one connection.
type follower struct {
	s    *Session
	conn *connection
	kind TaskKind
	id   string
	// polls counts the tasks/get sent.
	polls int
	// answered holds the keys of the extension's input requests answered,
	// so a request the server still lists is not put to anyone twice.
	answered map[string]bool
	// fetch is the 2025-11-25 tasks/result in flight, started when the task
	// asked for input: the server's requests come on it.
	fetch chan fetched
	// seen is the last task object the server sent (by tasks/get, or
	// tasks/cancel at 2025-11-25): the extension's carries a finished
	// task's result or error.
	seen *wireTask
	// bound, when set, bounds each request about the task: a lookup
	// (GetTask, CancelTask) must not wait for ever on a server that does
	// not answer. A followed task's 2025-11-25 tasks/result waits for the
	// task, so a follow sets none.
	bound time.Duration
	// still is the call's timeout while the task is followed (nil when
	// nothing follows it: GetTask).
	still *stillness
}

// fetched is the answer to a 2025-11-25 tasks/result.
type fetched struct {
	raw json.RawMessage
	err error
}

// call sends one task method about the task, within bound.
func (f *follower) call(ctx context.Context, method string, inputs json.RawMessage) (json.RawMessage, error) {
	if f.bound <= 0 {
		return f.conn.taskCall(ctx, f.kind, method, f.id, inputs)
	}
	late := &TaskError{Failure: policy.Timeout,
		Msg: fmt.Sprintf("the server did not answer %s for task %s within %s", method, f.id, f.bound)}
	rctx, cancel := context.WithTimeoutCause(ctx, f.bound, late)
	defer cancel()
	raw, err := f.conn.taskCall(rctx, f.kind, method, f.id, inputs)
	if err != nil && ctx.Err() == nil && context.Cause(rctx) == late {
		return nil, late
	}
	return raw, err
}

// poll sends tasks/get, again after a failure (it only reads), and checks
// the answer is about this task.
func (f *follower) poll(ctx context.Context) (Task, *wireTask, error) {
	var last error
	wait := 250 * time.Millisecond
	for try := 1; try <= taskGetTries; try++ {
		if try > 1 {
			select {
			case <-ctx.Done():
				return Task{}, nil, ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		raw, err := f.call(ctx, "tasks/get", nil)
		if err == nil {
			f.polls++
			t, w, err := f.s.readTask(raw, f.kind)
			if err != nil {
				return Task{}, nil, err
			}
			if t.ID != f.id {
				return Task{}, nil, taskViolation("the server answered tasks/get for task %s with task %s", f.id, t.ID)
			}
			t.Polls = f.polls
			f.seen = w
			return t, w, nil
		}
		if ctx.Err() != nil {
			return Task{}, nil, ctx.Err()
		}
		var te *TaskError
		if errors.As(err, &te) {
			return Task{}, nil, te
		}
		last = err
		var je *jsonrpc.Error
		if errors.As(err, &je) && permanentCodes[je.Code] != "" {
			break
		}
	}
	return Task{}, nil, &TaskError{Failure: policy.ServerError,
		Msg: f.s.Target.Redact(fmt.Sprintf("asking the server about task %s failed: %s", f.id, termtext.Line(last.Error())))}
}

// result reads a completed task's result: inline for the extension, by
// tasks/result at 2025-11-25.
func (f *follower) result(ctx context.Context, w *wireTask) (*Result, error) {
	raw := w.Result
	if f.kind == TaskAugmented {
		var err error
		if raw, err = f.fetchResult(ctx); err != nil {
			return nil, err
		}
	}
	if isNull(raw) {
		return nil, taskViolation("the server says task %s completed but sent no result", f.id)
	}
	asks, res, err := readAnswer(raw)
	switch {
	case err != nil:
		return nil, &TaskError{Failure: policy.ProtocolViolation, Msg: fmt.Sprintf("the result of task %s: %s", f.id, termtext.Line(err.Error()))}
	case asks:
		return nil, taskViolation("the result of task %s asks for more input, which a task's result cannot", f.id)
	}
	res.Raw = raw
	return res, nil
}

// fetchResult is 2025-11-25's tasks/result: the one in flight, or a new one.
func (f *follower) fetchResult(ctx context.Context) (json.RawMessage, error) {
	if f.fetch == nil {
		f.startFetch(ctx)
	}
	select {
	case a := <-f.fetch:
		f.fetch = nil
		if a.err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			var te *TaskError
			if errors.As(a.err, &te) {
				return nil, te
			}
			return nil, &TaskError{Failure: policy.ServerError,
				Msg: f.s.Target.Redact(fmt.Sprintf("fetching the result of task %s failed: %s", f.id, termtext.Line(a.err.Error())))}
		}
		return a.raw, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// startFetch sends tasks/result without waiting for it: at 2025-11-25 it
// answers once the task is done, and the server's requests for input come
// while it waits (answered by the session's handlers, as during a call).
func (f *follower) startFetch(ctx context.Context) {
	ch := make(chan fetched, 1)
	f.fetch = ch
	go func() {
		raw, err := f.call(ctx, "tasks/result", nil)
		ch <- fetched{raw, err}
	}()
}

// failure words a failed task's error.
func (f *follower) failure(ctx context.Context, w *wireTask, t Task) string {
	if f.kind == TaskExtension && w.Error != nil {
		return f.s.Target.Redact(fmt.Sprintf("the task failed: %s (code %d)", clipText(safeText(w.Error.Message), maxStatusMessage), w.Error.Code))
	}
	if f.kind == TaskAugmented {
		// tasks/result carries what the call would have answered.
		rctx, cancel := context.WithTimeout(ctx, taskCancelWait)
		defer cancel()
		if raw, err := f.fetchResult(rctx); err != nil {
			var je *jsonrpc.Error
			if errors.As(err, &je) {
				return f.s.Target.Redact("the task failed: " + termtext.Line(je.Message))
			}
		} else if _, res, err := readAnswer(raw); err == nil && res.IsError {
			for _, b := range res.Content {
				if b.Type == "text" && b.Text != "" {
					return f.s.Target.Redact("the task failed: " + clipText(safeText(b.Text), maxStatusMessage))
				}
			}
		}
	}
	if t.StatusMessage != "" {
		return "the task failed: " + t.StatusMessage
	}
	return "the task failed; the server said no more"
}

// cancel sends tasks/cancel and returns the task as the server reports it.
func (f *follower) cancel(ctx context.Context) (*Task, error) {
	raw, err := f.call(ctx, "tasks/cancel", nil)
	if err != nil {
		var te *TaskError
		if errors.As(err, &te) {
			return nil, te
		}
		return nil, &TaskError{Failure: policy.ServerError,
			Msg: f.s.Target.Redact(fmt.Sprintf("cancelling task %s failed: %s", f.id, termtext.Line(err.Error())))}
	}
	if f.kind == TaskAugmented {
		t, w, err := f.s.readTask(raw, f.kind)
		if err != nil {
			return nil, err
		}
		if t.ID != f.id {
			return nil, taskViolation("the server answered tasks/cancel for task %s with task %s", f.id, t.ID)
		}
		f.seen = w
		t.Polls = f.polls
		return &t, nil
	}
	t, _, err := f.poll(ctx)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// answerInput answers the extension's requests for input in a task's
// status, each key once, with tasks/update: the same answerers as a call's
// rounds (rounds_fulfil.go).
func (f *follower) answerInput(ctx context.Context, w *wireTask) error {
	ir, err := parseInputRequired(w.raw)
	if err != nil {
		var re *roundError
		if errors.As(err, &re) {
			return &TaskError{Failure: re.failure, Msg: fmt.Sprintf("task %s: %s", f.id, re.msg)}
		}
		return err
	}
	if f.answered == nil {
		f.answered = map[string]bool{}
	}
	fresh := ir.requests[:0:0]
	for _, r := range ir.requests {
		if !f.answered[r.key] {
			fresh = append(fresh, r)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	ir.requests = fresh
	answered := f.still.ask()
	out, _, cannot, err := f.s.fulfil(ctx, ir)
	answered()
	if err != nil {
		return err
	}
	for _, r := range fresh {
		f.answered[r.key] = true
	}
	if len(out) == 0 && cannot != "" {
		// Not a word to send: the task would wait for an answer nobody
		// gives until the call's timeout.
		return &TaskError{Failure: policy.TooManyRounds, unanswerable: true,
			Msg: "the task asks only for what mcpsh cannot answer: " + cannot}
	}
	if len(out) == 0 {
		return nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	if _, err := f.call(ctx, "tasks/update", b); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &TaskError{Failure: policy.ServerError,
			Msg: f.s.Target.Redact(fmt.Sprintf("answering task %s's request for input failed: %s", f.id, termtext.Line(err.Error())))}
	}
	return nil
}

// follow polls the task until it ends, telling onTask of each change, and
// answers what it asks for. timeout bounds the time without a change in
// its status or message (a task that never moves); maxDur the whole
// follow. The returned task is the last seen; the error a *TaskError, a
// *TimeoutError, or the context's.
func (f *follower) follow(ctx context.Context, t Task, onTask func(Task), timeout, maxDur time.Duration) (Task, *Result, string, error) {
	fctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if f.still == nil {
		f.still = &stillness{}
	}
	f.still.start(timeout, func() { cancel(&TimeoutError{After: timeout}) })
	defer f.still.stop()
	if f.kind == TaskAugmented {
		f.s.followed.Store(f.still, f.id)
		defer f.s.followed.Delete(f.still)
	}
	if maxDur > 0 {
		hard := time.AfterFunc(maxDur, func() { cancel(&TimeoutError{After: maxDur, Hard: true}) })
		defer hard.Stop()
	}
	fail := func(err error) (Task, *Result, string, error) {
		if ctx.Err() == nil {
			var te *TimeoutError
			if errors.As(context.Cause(fctx), &te) {
				return t, nil, "", te
			}
		}
		return t, nil, "", err
	}
	var w *wireTask
	for !t.Status.Terminal() {
		if f.kind == TaskAugmented && t.Status == TaskInputRequired && f.fetch == nil {
			f.startFetch(fctx)
		}
		if w != nil && f.kind == TaskExtension && t.Status == TaskInputRequired {
			if err := f.answerInput(fctx, w); err != nil {
				return fail(err)
			}
		}
		select {
		case <-fctx.Done():
			return fail(fctx.Err())
		case <-time.After(pollWait(t, timeout)):
		}
		next, nw, err := f.poll(fctx)
		if err != nil {
			if fctx.Err() != nil {
				err = fctx.Err()
			}
			return fail(err)
		}
		if next.Status != t.Status || next.StatusMessage != t.StatusMessage {
			f.still.moved()
			if onTask != nil {
				onTask(next)
			}
		}
		t, w = next, nw
	}
	switch t.Status {
	case TaskCompleted:
		res, err := f.result(fctx, w)
		if err != nil {
			return fail(err)
		}
		return t, res, "", nil
	case TaskFailed:
		return t, nil, f.failure(fctx, w, t), nil
	}
	return t, nil, "", nil
}
