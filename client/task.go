package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// A server may answer a tool call with a task: the work has started, and
// its result comes later. Two generations of the protocol say how, and mcpsh
// speaks both from the client side (go-sdk speaks neither):
//
//   - protocol 2025-11-25 (SEP-1686), task augmentation: a server that
//     declares tasks.requests.tools.call runs a call as a task when the
//     request carries params.task; a tool says whether it must
//     (execution.taskSupport "required") or may ("optional"). The task is
//     followed with tasks/get, its result fetched with tasks/result (which
//     is also where the server's requests for input arrive), and cancelled
//     with tasks/cancel.
//   - the tasks extension of 2026-07-28 (io.modelcontextprotocol/tasks): a
//     client that declares the extension may get resultType "task" in answer
//     to tools/call. tasks/get returns the status and, once the task is
//     done, its result or error inline; a task asks for input in its status
//     (input_required with inputRequests), answered with tasks/update;
//     tasks/cancel cancels it.
//
// Session.Do follows a task to its result by itself (Call.OnTask hears each
// status), unless Call.Detach asks it to return once the task exists. A
// call whose task was created is never sent again: the work has started. A
// task can be looked up and cancelled by its ID later, from another
// session (GetTask, CancelTask), when the server keeps it that long.

// TaskStatus is a task's status as the server reports it.
type TaskStatus string

// The statuses both generations define.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Terminal reports a status after which the task does not change.
func (st TaskStatus) Terminal() bool {
	return st == TaskCompleted || st == TaskFailed || st == TaskCancelled
}

// TaskKind says which generation of tasks a server offers.
type TaskKind string

const (
	// TaskAugmented is protocol 2025-11-25's task augmentation.
	TaskAugmented TaskKind = "2025-11-25"
	// TaskExtension is the tasks extension of protocol 2026-07-28.
	TaskExtension TaskKind = TasksExtensionID
)

// TasksExtensionID is the tasks extension's name in capabilities.
const TasksExtensionID = "io.modelcontextprotocol/tasks"

// A tool's execution.taskSupport (Tool.TaskSupport).
const (
	TaskRequired = "required"
	TaskOptional = "optional"
)

// Task is a server's task as last seen. Its text is the server's, made safe
// for a terminal and redacted; ID is kept as sent (it is sent back), and
// mcpsh refuses an ID that would not print safely.
type Task struct {
	ID     string     `json:"taskId"`
	Kind   TaskKind   `json:"kind"`
	Status TaskStatus `json:"status"`
	// StatusMessage is the server's words on the status, or "".
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt,omitempty"`
	LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
	// PollInterval is the interval between polls the server suggested, 0
	// when it suggested none. mcpsh polls within bounds of its own
	// (taskPollMin, taskPollMax) whatever the server says.
	PollInterval time.Duration `json:"-"`
	// Polls counts the tasks/get requests mcpsh sent while following it.
	Polls int `json:"polls,omitempty"`
}

// TaskState is a task looked up by its ID: its status and, once it
// completed, its result; once it failed, the server's error.
type TaskState struct {
	Task
	// Result is the tool's result, for a completed task.
	Result *Result
	// Error is the server's error for a failed task, safe for a terminal.
	Error string
}

// TaskError is a request about a task that did not get an answer mcpsh can
// use: the server has no tasks, answered with an error, or broke the
// protocol. Failure classes it as a call's failures are.
type TaskError struct {
	Failure policy.Failure
	Msg     string
	// unanswerable: the task asks only for what mcpsh cannot answer, so
	// the call that follows it cancels it.
	unanswerable bool
}

func (e *TaskError) Error() string { return e.Msg }

// TaskKind returns the generation of tasks the server offers on this
// session, or "" when it offers none.
func (s *Session) TaskKind() TaskKind {
	k, _ := s.current().taskKind()
	return k
}

// GetTask asks the server once for the task with this ID: its status, and
// its result when it completed. A request that fails is asked again a few
// times (it only reads). It never waits for the task to finish, and waits
// for each answer at most the target's call timeout (DefaultTimeout when
// it sets none): a request unanswered by then is a TaskError (Timeout)
// that names it.
func (s *Session) GetTask(ctx context.Context, id string) (*TaskState, error) {
	c := s.current()
	kind, _ := c.taskKind()
	if kind == "" {
		return nil, &TaskError{Failure: policy.NotSent, Msg: "the server offers no tasks; nothing was sent"}
	}
	if err := checkTaskID(id); err != nil {
		return nil, &TaskError{Failure: policy.NotSent, Msg: err.Error() + "; nothing was sent"}
	}
	f := &follower{s: s, conn: c, kind: kind, id: id, bound: s.taskBound()}
	st, err := f.get(ctx)
	if err != nil {
		return nil, s.taskErr(err)
	}
	return st, nil
}

func (f *follower) get(ctx context.Context) (*TaskState, error) {
	t, w, err := f.poll(ctx)
	if err != nil {
		return nil, err
	}
	st := &TaskState{Task: t}
	switch t.Status {
	case TaskCompleted:
		res, err := f.result(ctx, w)
		if err != nil {
			return nil, err
		}
		st.Result = res
	case TaskFailed:
		st.Error = f.failure(ctx, w, t)
	}
	return st, nil
}

// CancelTask asks the server to cancel the task with this ID, and returns
// the task as the server then reports it (a 2025-11-25 server answers with
// the task; for the extension, mcpsh asks for it after). Each answer is
// waited for as GetTask waits.
func (s *Session) CancelTask(ctx context.Context, id string) (*Task, error) {
	c := s.current()
	kind, canCancel := c.taskKind()
	switch {
	case kind == "":
		return nil, &TaskError{Failure: policy.NotSent, Msg: "the server offers no tasks; nothing was sent"}
	case !canCancel:
		return nil, &TaskError{Failure: policy.NotSent, Msg: "the server does not offer to cancel its tasks; nothing was sent"}
	}
	if err := checkTaskID(id); err != nil {
		return nil, &TaskError{Failure: policy.NotSent, Msg: err.Error() + "; nothing was sent"}
	}
	f := &follower{s: s, conn: c, kind: kind, id: id, bound: s.taskBound()}
	t, err := f.cancel(ctx)
	if err != nil {
		return nil, s.taskErr(err)
	}
	return t, nil
}

// taskBound bounds each request of GetTask and CancelTask: the target's
// call timeout, else the default one.
func (s *Session) taskBound() time.Duration {
	if s.Target.Timeout > 0 {
		return s.Target.Timeout
	}
	return DefaultTimeout
}

// taskErr is the error GetTask and CancelTask return: whatever the server's
// words in it, without a credential the target holds (a call's failures
// are redacted where they are finished; these reach the caller as they
// are).
func (s *Session) taskErr(err error) error {
	var te *TaskError
	if errors.As(err, &te) {
		return &TaskError{Failure: te.Failure, Msg: s.Target.Redact(te.Msg)}
	}
	return err
}

// checkTaskID refuses an ID mcpsh could not show as it is: a person copies
// it from mcpsh's output to a later command.
func checkTaskID(id string) error {
	switch {
	case id == "":
		return errors.New("the task ID is empty")
	case len(id) > maxTaskID:
		return fmt.Errorf("the task ID is %d bytes long; mcpsh takes at most %d", len(id), maxTaskID)
	case !termtext.SafeLine(id):
		return fmt.Errorf("the task ID %q holds characters a terminal would act on", clipText(safeText(id), 60))
	}
	return nil
}

// maxTaskID bounds a task ID's length.
const maxTaskID = 512
