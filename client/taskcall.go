package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/policy"
)

// taskTTL is the retention mcpsh asks a 2025-11-25 server to keep a task
// for: long enough to look it up later (GetTask) after a detached call.
const taskTTL = int64(time.Hour / time.Millisecond)

// asTask marks a tools/call so the server may run it as a task, and says
// which kind of task its answer may be. With the extension (2026-07-28)
// every call declares it, and the server decides. At 2025-11-25 a call is
// sent as a task when the server offers tasks for tools/call and the tool
// says it must run as one ("required") or may ("optional": mcpsh follows
// a task as well as it waits for an answer, and a task can be cancelled
// and looked up later, so it takes the offer).
func asTask(ctx context.Context, conn *connection, tool *Tool) (context.Context, TaskKind) {
	kind, _ := conn.taskKind()
	switch {
	case kind == TaskExtension:
		return withTaskRequest(ctx), kind
	case kind == TaskAugmented && (tool.TaskSupport == TaskRequired || tool.TaskSupport == TaskOptional):
		return context.WithValue(ctx, taskAugmentKey{}, &taskAugment{TTL: taskTTL}), kind
	}
	return ctx, ""
}

// finishTask ends a call the server runs as a task: at once for a caller
// that does not wait (Detach), else once the task ends. Whatever happens
// while it is followed, the call is not sent again; a caller that gives up
// (ctx) or a task that does not move within the call's timeout gets the
// task cancelled (tasks/cancel).
//
// The call's progress token stays in use for the task's life (2025-11-25
// says so; mcpsh routes it whichever the generation): progress on it
// reaches the caller and counts as the task moving, until the follow ends.
func (s *Session) finishTask(ctx context.Context, c *Call, conn *connection, tool *Tool, o *Outcome, t Task, token string, timeout, maxDur time.Duration) {
	// As after a call's answer, progress sent just before the end still
	// finds its way a moment.
	defer time.AfterFunc(progressLinger, func() { s.progress.Delete(token) })
	o.Task = &t
	if c.OnTask != nil {
		c.OnTask(t)
	}
	if c.Detach {
		o.Status = StatusTask
		return
	}
	f := &follower{s: s, conn: conn, kind: t.Kind, id: t.ID, still: &stillness{}}
	s.progress.Store(token, func(p Progress) {
		f.still.moved()
		if c.OnProgress != nil {
			c.OnProgress(p)
		}
	})
	last, res, failed, err := f.follow(ctx, t, c.OnTask, timeout, maxDur)
	o.Task = &last
	switch {
	case err == nil && res != nil:
		s.finishOK(o, tool, res)
	case err == nil && last.Status == TaskFailed:
		s.finishFailed(o, policy.ServerError, s.taskMsg(t.ID, failed), "")
	case err == nil:
		// Cancelled, by someone else: mcpsh did not ask.
		msg := "the server cancelled the task"
		if last.StatusMessage != "" {
			msg += ": " + last.StatusMessage
		}
		s.finishFailed(o, policy.ServerError, s.taskMsg(t.ID, msg), "")
	default:
		s.abandonTask(ctx, f, tool, o, err)
	}
}

// abandonTask ends a call whose task mcpsh stopped following: the caller
// gave up, the task did not move in time, or it asks only for what mcpsh
// cannot answer (it is cancelled, and the outcome says whether the server
// agreed), or the server broke off. A task
// that, as the server then reports it, had ended all the same is reported
// as it ended: completed with its result, or failed.
func (s *Session) abandonTask(ctx context.Context, f *follower, tool *Tool, o *Outcome, err error) {
	var te *TimeoutError
	var tke *TaskError
	switch {
	case ctx.Err() != nil || errors.As(err, &te) || errors.As(err, &tke) && tke.unanswerable:
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), taskCancelWait)
		defer cancel()
		told := "mcpsh could not tell the server"
		if _, canCancel := f.conn.taskKind(); !canCancel {
			told = "the server does not offer to cancel its tasks"
		} else if got, cerr := f.cancel(cctx); cerr == nil {
			told = "the server was told"
			*o.Task = *got
		} else {
			told = "cancelling it failed: " + cerr.Error()
		}
		if s.endedAfterAll(cctx, f, tool, o) {
			return
		}
		switch {
		case ctx.Err() != nil:
			s.finishFailed(o, policy.Cancelled, s.taskMsg(f.id, fmt.Sprintf("cancelled by the user (%s)", told)), "")
		case te != nil:
			s.finishFailed(o, policy.Timeout, s.taskMsg(f.id, fmt.Sprintf("%s; the task was cancelled (%s)", taskTimeoutWords(te), told)), "")
		default:
			s.finishFailed(o, tke.Failure, s.taskMsg(f.id, fmt.Sprintf("%s; the task was cancelled (%s)", tke.Msg, told)), "")
		}
	case errors.As(err, &tke):
		s.finishFailed(o, tke.Failure, s.taskMsg(f.id, tke.Msg+"; the task may still be running on the server"), "")
	default:
		s.finishFailed(o, policy.ServerError, s.taskMsg(f.id, err.Error()+"; the task may still be running on the server"), "")
	}
}

// endedAfterAll finishes the outcome of a task mcpsh gave up on that the
// server last reported completed or failed (in answer to tasks/cancel, or
// to the last tasks/get), and says whether it did.
func (s *Session) endedAfterAll(ctx context.Context, f *follower, tool *Tool, o *Outcome) bool {
	if f.seen == nil {
		return false
	}
	// A tasks/result sent while the task was followed ended with it.
	f.fetch = nil
	switch o.Task.Status {
	case TaskCompleted:
		res, err := f.result(ctx, f.seen)
		if err != nil {
			msg := err.Error()
			if ctx.Err() != nil {
				msg = fmt.Sprintf("its result did not come within %s", taskCancelWait)
			}
			s.finishFailed(o, policy.ServerError, s.taskMsg(f.id, "the task completed as mcpsh gave up on it, but "+msg), "")
			return true
		}
		s.finishOK(o, tool, res)
		return true
	case TaskFailed:
		s.finishFailed(o, policy.ServerError, s.taskMsg(f.id, f.failure(ctx, f.seen, *o.Task)), "")
		return true
	}
	return false
}

func taskTimeoutWords(te *TimeoutError) string {
	if te.Hard {
		return fmt.Sprintf("the task did not end within the hard limit of %s", te.After)
	}
	return fmt.Sprintf("the task's status did not change within %s", te.After)
}

// taskMsg puts the task's ID before what became of it.
func (s *Session) taskMsg(id, msg string) string {
	return "task " + id + ": " + msg
}

// cannotRunAsTask says why a tool that runs only as a task cannot be called
// on this session, or "": at 2025-11-25 a server that does not offer tasks
// for tools/call cannot run it, and a plain call would break its contract.
func (s *Session) cannotRunAsTask(tool *Tool) string {
	c := s.current()
	if tool.TaskSupport != TaskRequired || c.enveloped() {
		return ""
	}
	if kind, _ := c.taskKind(); kind == TaskAugmented {
		return ""
	}
	return "not sent: " + safeText(tool.Name) + " runs only as a task, and the server does not offer tasks for tool calls"
}
