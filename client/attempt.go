package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// One attempt of a call: the send, the timeout restarted by progress, and
// the read of what the wire tap kept.

// cancelWait bounds the wait for a cancellation to leave mcpsh.
const cancelWait = time.Second

// progressLinger is how long a finished call still receives progress.
const progressLinger = time.Second

// TimeoutError is a call that got no answer within its timeout.
type TimeoutError struct {
	After time.Duration
	// Hard: the limit progress does not extend was reached.
	Hard bool
	// Told: notifications/cancelled reached the wire.
	Told bool
}

func (e *TimeoutError) Error() string {
	told := "(the server was told to cancel)"
	if !e.Told {
		told = "(mcpsh could not tell the server to cancel in time)"
	}
	if e.Hard {
		return fmt.Sprintf("no answer within the hard limit of %s %s", e.After, told)
	}
	return fmt.Sprintf("no answer or progress within %s %s", e.After, told)
}

func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// attempt sends the call once, with fresh params (the SDK mutates them), and
// reads the result the wire tap kept: a final one, or (more) one that asks
// for input before the next round. in is what a round after the first
// carries.
func (s *Session) attempt(ctx context.Context, conn *connection, c *Call, tool *Tool, in *roundInput, timeout, maxDur time.Duration) (res *Result, more json.RawMessage, task *Task, wire callWire, err error) {
	token := "mcpsh-" + strconv.FormatInt(s.seq.Add(1), 10)
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var timer *time.Timer
	if timeout > 0 {
		timer = time.AfterFunc(timeout, func() { cancel(&TimeoutError{After: timeout}) })
		defer timer.Stop()
	}
	if maxDur > 0 {
		hard := time.AfterFunc(maxDur, func() { cancel(&TimeoutError{After: maxDur, Hard: true}) })
		defer hard.Stop()
	}
	var done atomic.Bool
	s.progress.Store(token, func(p Progress) {
		if timer != nil && !done.Load() {
			timer.Reset(timeout)
		}
		if c.OnProgress != nil {
			c.OnProgress(p)
		}
	})
	defer func() {
		done.Store(true)
		if task != nil {
			// The token stays in use for the task's life (2025-11-25): the
			// route is the follower's now (finishTask).
			wire.progressToken = token
			return
		}
		// The SDK hands a response to its caller before it has run the handlers
		// of notifications that came earlier on the wire, so the route stays a
		// moment for progress that was sent before the answer.
		time.AfterFunc(progressLinger, func() { s.progress.Delete(token) })
	}()

	params := &mcp.CallToolParams{Name: tool.Name, Arguments: callArgs(c), Meta: callMeta(c.Meta)}
	if in != nil {
		params.InputResponses, params.RequestState = in.responses, in.state
	}
	params.SetProgressToken(token)
	sctx, kind := asTask(withCallTool(withCallToken(actx, token), tool), conn, tool)
	_, err = conn.cs.CallTool(sctx, params)
	told := false
	if err != nil && actx.Err() != nil {
		// The SDK sends notifications/cancelled from a goroutine once CallTool
		// has returned; wait for it, so mcpsh neither exits before it leaves
		// nor says the server was told when it was not.
		told = conn.tap.cancelDelivered(token, cancelWait)
	}
	raw, captured := conn.tap.takeResult(token)
	wire = conn.tap.wireOf(token)
	wire.cancelTold, wire.sessionGone = told, conn.tap.sessionGone.Load()
	conn.tap.forget(token)
	if err != nil {
		var te *TimeoutError
		if errors.As(context.Cause(actx), &te) && ctx.Err() == nil {
			told := *te
			told.Told = wire.cancelTold
			return nil, nil, nil, wire, &told
		}
		return nil, nil, nil, wire, err
	}
	if !captured {
		return nil, nil, nil, wire, unreadable(fmt.Errorf("the answer to %s never reached mcpsh's reader", termtext.Line(tool.Name)))
	}
	if kind != "" {
		task, terr := s.createdTask(raw, kind)
		if terr != nil {
			// The server answered, in a way the protocol does not allow.
			return nil, nil, nil, wire, &roundError{failure: terr.Failure, msg: terr.Msg}
		}
		if task != nil {
			return nil, nil, task, wire, nil
		}
	}
	asks, res, err := readAnswer(raw)
	switch {
	case err != nil:
		return nil, nil, nil, wire, err
	case asks:
		return nil, raw, nil, wire, nil
	}
	res.Raw = raw
	return res, nil, nil, wire, nil
}

// callArgs are the arguments a call sends: the caller's bytes when it gave
// them, else Args. Never null: go-sdk servers panic on null arguments to a
// tool whose schema has defaults.
func callArgs(c *Call) any {
	if raw := bytes.TrimSpace(c.RawArgs); len(raw) > 0 && !isNull(raw) {
		return json.RawMessage(raw)
	}
	if c.Args == nil {
		return map[string]any{}
	}
	return c.Args
}

// callMeta is the _meta a call carries besides the progress token: the
// caller's members, less those that belong to the connection (the progress
// token mcpsh routes progress by; at 2026-07-28 go-sdk's own
// io.modelcontextprotocol/ members, which name this hop's version, client
// and capabilities). A fresh map each attempt: go-sdk writes into it.
func callMeta(m map[string]json.RawMessage) mcp.Meta {
	if len(m) == 0 {
		return nil
	}
	out := make(mcp.Meta, len(m))
	for k, v := range m {
		if IsHopMeta(k) || !json.Valid(v) {
			continue
		}
		out[k] = v
	}
	return out
}

// IsHopMeta reports a _meta key that belongs to one connection rather than
// to the request's content: the progress token, and the protocol's
// io.modelcontextprotocol/ members (SEP-2575). A proxy does not forward
// them; each hop has its own.
func IsHopMeta(key string) bool {
	return key == "progressToken" || strings.HasPrefix(key, "io.modelcontextprotocol/")
}

// unreadable is an answer mcpsh could not read. The server did answer, so the
// call may have run: it is treated as a server error, not as a lost connection.
func unreadable(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "mcpsh could not read the server's answer: " + err.Error()}
}
