package client

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The task methods go through go-sdk's custom methods (AddSendingCustomMethod,
// CallCustomMethod: go-sdk's entry 43 in ARCHITECTURE.md), so each request
// gets the 2026-07-28 envelope and the sending middleware like any other, over
// every transport; their answers are read raw (rawAnswer), as mcpsh reads a
// call's.
var taskMethods = []string{"tasks/get", "tasks/result", "tasks/cancel", "tasks/update"}

// registerTaskMethods lets the client send the task methods.
func registerTaskMethods(c *mcp.Client) error {
	for _, m := range taskMethods {
		if err := mcp.AddSendingCustomMethod[*taskParams, *rawAnswer](c, m); err != nil {
			return err
		}
	}
	return nil
}

// taskParams are the params of every task method.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string          `json:"taskId"`
	InputResponses json.RawMessage `json:"inputResponses,omitempty"`
}

// rawAnswer keeps a result as it came: mcpsh reads it itself.
type rawAnswer struct {
	mcp.ResultBase
	raw json.RawMessage
}

func (r *rawAnswer) UnmarshalJSON(b []byte) error {
	r.raw = append(json.RawMessage(nil), b...)
	return nil
}

// taskRequestKey marks, on a context, a request that carries the tasks
// extension in its client capabilities (requestMeta).
type taskRequestKey struct{}

// taskAugmentKey marks, on a context, a 2025-11-25 tools/call sent as a task:
// requestMeta adds params.task (taskCallParams).
type taskAugmentKey struct{}

// taskAugment is params.task of a 2025-11-25 tools/call.
type taskAugment struct {
	TTL int64 `json:"ttl,omitempty"`
}

// taskCallParams is a tools/call with params.task, which go-sdk's
// CallToolParams lacks (go-sdk's entry 44 in ARCHITECTURE.md).
type taskCallParams struct {
	mcp.CallToolParams
	Task *taskAugment `json:"task"`
}

// withTaskRequest marks the requests sent with ctx as the tasks extension's.
func withTaskRequest(ctx context.Context) context.Context {
	return context.WithValue(ctx, taskRequestKey{}, true)
}

// taskMeta completes a 2026-07-28 request's _meta for tasks: the client
// capabilities go-sdk wrote gain the tasks extension, on the requests that
// are about tasks only (a tools/call that may become one, the task methods),
// so a server hears of the extension only where mcpsh follows what it
// answers. meta is a copy the caller may change.
func taskMeta(ctx context.Context, method string, meta map[string]any) bool {
	if marked, _ := ctx.Value(taskRequestKey{}).(bool); !marked {
		return false
	}
	caps := map[string]any{}
	if cur, ok := meta[mcp.MetaKeyClientCapabilities]; ok {
		b, err := json.Marshal(cur)
		if err != nil || json.Unmarshal(b, &caps) != nil || caps == nil {
			caps = map[string]any{}
		}
	}
	ext, _ := caps["extensions"].(map[string]any)
	ext = maps.Clone(ext)
	if ext == nil {
		ext = map[string]any{}
	}
	ext[TasksExtensionID] = map[string]any{}
	caps["extensions"] = ext
	meta[mcp.MetaKeyClientCapabilities] = caps
	return true
}

// augmentCall is the request requestMeta sends for a tools/call marked with
// taskAugmentKey: the same call, with params.task.
func augmentCall(ctx context.Context, method string, req mcp.Request) mcp.Request {
	ta, ok := ctx.Value(taskAugmentKey{}).(*taskAugment)
	if !ok || method != "tools/call" {
		return req
	}
	p, ok := req.GetParams().(*mcp.CallToolParams)
	if !ok || p == nil {
		return req
	}
	cs, _ := req.GetSession().(*mcp.ClientSession)
	return &mcp.ClientRequest[*taskCallParams]{Session: cs, Params: &taskCallParams{CallToolParams: *p, Task: ta}}
}

// taskKind says which tasks the server offers on this connection, and
// whether it lets them be cancelled. At 2026-07-28 the extension, declared
// in the server's capabilities; before, 2025-11-25's tasks capability with
// tools/call among its requests, read from the initialize answer as it came
// (go-sdk's types have no tasks capability).
func (c *connection) taskKind() (TaskKind, bool) {
	if c == nil || c.cs == nil {
		return "", false
	}
	if c.enveloped() {
		if r := c.cs.InitializeResult(); r != nil && r.Capabilities != nil {
			if _, ok := r.Capabilities.Extensions[TasksExtensionID]; ok {
				return TaskExtension, true
			}
		}
		return "", false
	}
	if c.tap == nil {
		return "", false
	}
	raw := c.tap.initialize.Load()
	if raw == nil {
		return "", false
	}
	var init struct {
		Capabilities struct {
			Tasks *struct {
				Cancel   json.RawMessage `json:"cancel"`
				Requests struct {
					Tools struct {
						Call json.RawMessage `json:"call"`
					} `json:"tools"`
				} `json:"requests"`
			} `json:"tasks"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(*raw, &init) != nil || init.Capabilities.Tasks == nil {
		return "", false
	}
	t := init.Capabilities.Tasks
	if !isObject(t.Requests.Tools.Call) {
		return "", false
	}
	return TaskAugmented, isObject(t.Cancel)
}

func isObject(raw json.RawMessage) bool {
	_, err := objectFields(raw)
	return len(raw) > 0 && err == nil
}

// readTaskSupport reads a tool's execution.taskSupport.
func readTaskSupport(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	var e struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return ""
	}
	switch e.TaskSupport {
	case TaskRequired, TaskOptional:
		return e.TaskSupport
	}
	return ""
}

// wireTask is a task as either generation sends it, every field the
// server's. 2025-11-25 names the interval pollInterval and nests a created
// task under "task"; the extension names it pollIntervalMs, and carries a
// finished task's result or error, or its requests for input, inline.
type wireTask struct {
	TaskID         *string         `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  *string         `json:"statusMessage"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	PollInterval   *float64        `json:"pollInterval"`
	PollIntervalMS *float64        `json:"pollIntervalMs"`
	Result         json.RawMessage `json:"result"`
	Error          *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	InputRequests json.RawMessage `json:"inputRequests"`
	// raw is the object the task was read from (inputRequests' reader
	// takes it whole).
	raw json.RawMessage
}

// maxStatusMessage bounds the runes of a status message mcpsh keeps.
const maxStatusMessage = 500

// readTask reads a task object of kind. It checks what mcpsh acts on: an ID
// that prints safely, a status both generations define.
func (s *Session) readTask(raw json.RawMessage, kind TaskKind) (Task, *wireTask, error) {
	var w wireTask
	if err := json.Unmarshal(raw, &w); err != nil {
		return Task{}, nil, taskViolation("the server's task is not a task object: %s", clip(raw, 80))
	}
	w.raw = raw
	if w.TaskID == nil {
		return Task{}, nil, taskViolation("the server's task has no taskId: %s", clip(raw, 80))
	}
	if err := checkTaskID(*w.TaskID); err != nil {
		return Task{}, nil, taskViolation("the server's task is not one mcpsh can follow: %s", err)
	}
	t := Task{ID: *w.TaskID, Kind: kind, Status: TaskStatus(w.Status),
		CreatedAt: clipText(safeText(w.CreatedAt), 40), LastUpdatedAt: clipText(safeText(w.LastUpdatedAt), 40)}
	switch t.Status {
	case TaskWorking, TaskInputRequired, TaskCompleted, TaskFailed, TaskCancelled:
	default:
		return Task{}, nil, taskViolation("the server's task %s has the status %q, which no protocol version defines", t.ID, clipText(safeText(w.Status), 40))
	}
	if w.StatusMessage != nil {
		t.StatusMessage = s.Target.Redact(clipText(safeText(*w.StatusMessage), maxStatusMessage))
	}
	ms := w.PollInterval
	if kind == TaskExtension {
		ms = w.PollIntervalMS
	}
	if ms != nil && *ms > 0 && !math.IsInf(*ms, 0) && !math.IsNaN(*ms) {
		t.PollInterval = time.Duration(min(*ms, float64(24*time.Hour/time.Millisecond))) * time.Millisecond
	}
	return t, &w, nil
}

func taskViolation(format string, args ...any) *TaskError {
	return &TaskError{Failure: policy.ProtocolViolation, Msg: fmt.Sprintf(format, args...)}
}

// createdTask reads the answer to a tools/call as a created task, when it
// is one: resultType "task" for the extension (only when mcpsh declared it:
// a server that sends one unasked breaks the protocol, and rounds.go says
// so), {"task":{…}} for an augmented 2025-11-25 call.
func (s *Session) createdTask(raw json.RawMessage, kind TaskKind) (*Task, *TaskError) {
	switch kind {
	case TaskExtension:
		fs, err := objectFields(raw)
		if err != nil {
			return nil, nil
		}
		typ, err := onlyOne(fs, "resultType")
		if err != nil || string(typ) != `"task"` {
			return nil, nil
		}
		t, _, err := s.readTask(raw, kind)
		if err != nil {
			return nil, err.(*TaskError)
		}
		return &t, nil
	case TaskAugmented:
		var created struct {
			Task json.RawMessage `json:"task"`
		}
		if json.Unmarshal(raw, &created) != nil || isNull(created.Task) {
			return nil, taskViolation("the server answered a call sent as a task without a task: %s", clip(raw, 80))
		}
		t, _, err := s.readTask(created.Task, kind)
		if err != nil {
			return nil, err.(*TaskError)
		}
		return &t, nil
	}
	return nil, nil
}

// taskCall sends one task method and returns its answer as it came.
func (c *connection) taskCall(ctx context.Context, kind TaskKind, method, id string, inputs json.RawMessage) (json.RawMessage, error) {
	if kind == TaskExtension {
		ctx = withTaskRequest(ctx)
	}
	res, err := mcp.CallCustomMethod[*taskParams, *rawAnswer](ctx, c.cs, method, &taskParams{TaskID: id, InputResponses: inputs})
	if err != nil {
		return nil, err
	}
	if res == nil || len(res.raw) == 0 {
		return nil, taskViolation("the server's answer to %s is empty", method)
	}
	return res.raw, nil
}

// addTaskNameHeader names the task in the Mcp-Name header of a task method
// sent over HTTP with the standard headers (2026-07-28, SEP-2243: a server
// routes a task's requests by it, and refuses one whose header and body
// disagree). go-sdk names only the tool, prompt or resource of the
// requests it knows.
func addTaskNameHeader(h http.Header, method string, params json.RawMessage) {
	if h.Get("Mcp-Method") == "" || !slices.Contains(taskMethods, method) {
		return
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	if json.Unmarshal(params, &p) == nil && p.TaskID != "" && headerSafe(p.TaskID) {
		h.Set("Mcp-Name", p.TaskID)
	}
}

// headerSafe reports a value that can go in a header as it is: mcpsh
// checked the ID prints safely (checkTaskID), which allows what a header
// does not (characters beyond ASCII).
func headerSafe(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}
