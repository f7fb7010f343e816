package client

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// retryInitial is the first backoff wait; tests shorten it.
var retryInitial = 250 * time.Millisecond

// CallError is a call that failed after all the attempts policy allowed.
type CallError struct {
	Failure policy.Failure
	Msg     string
}

func (e *CallError) Error() string { return e.Msg }

// execute sends the call, and sends it again while policy.Retry allows,
// waiting by exponential backoff with jitter, or longer when an HTTP server
// asks with Retry-After.
func (s *Session) execute(ctx context.Context, c *Call, d policy.Decision, o *Outcome) {
	timeout, maxDur, attempts, retryMax := c.limits(s.Target)
	bo := backoff.NewExponentialBackOff()
	bo.InitialInterval = retryInitial
	bo.RandomizationFactor = 0.5
	bo.Multiplier = 2
	bo.MaxInterval = 10 * time.Second
	bo.MaxElapsedTime = retryMax
	bo.Reset()
	start := s.now()
	tool := c.Tool
	for n := 1; ; n++ {
		t0 := s.now()
		var (
			res  *Result
			err  error
			wire callWire
			conn = s.current()
		)
		if err = s.ensureConnected(ctx); err == nil {
			conn = s.current()
			res, err, wire = s.attempt(ctx, conn, c, tool, timeout, maxDur)
		}
		a := Attempt{N: n, DurationMS: ms(s.now().Sub(t0))}
		if err == nil {
			o.Attempts = append(o.Attempts, a)
			s.finishOK(o, tool, res)
			return
		}
		f := classify(ctx, err, wire)
		a.Failure, a.Error = string(f), describe(f, err, wire)
		if f == policy.ConnectionLost {
			if words := s.lastWords(conn); words != "" {
				a.Error += " (" + words + ")"
			}
		}
		again, why := policy.Retry(d, f, n, attempts)
		var wait time.Duration
		if again {
			// Stop first: a server's Retry-After must not revive a spent budget.
			if wait = bo.NextBackOff(); wait != backoff.Stop && wire.retryAfter > wait {
				wait = wire.retryAfter
			}
			if wait == backoff.Stop || s.now().Sub(start)+wait > retryMax {
				again, why = false, fmt.Sprintf("gave up: another attempt would pass the retry limit of %s", retryMax)
			}
		}
		if f == policy.ConnectionLost || connectionGone(err) {
			// Bring the session back whether or not this call is retried, so a
			// script goes on with its next line on the new session.
			if rerr := s.reconnect(ctx, conn); rerr != nil {
				again, why = false, why+"; "+rerr.Error()
			} else if t, ok := s.Tool(tool.Name); !ok {
				again, why = false, fmt.Sprintf("%s; the restarted server no longer lists %s", why, tool.Name)
			} else {
				tool = t
			}
		}
		if again {
			a.WaitMS = ms(wait)
		}
		o.Attempts = append(o.Attempts, a)
		if !again {
			s.finishFailed(o, f, a.Error, why)
			return
		}
		if c.OnRetry != nil {
			c.OnRetry(RetryNotice{Attempt: n, Of: d.MaxAttempts, Failure: f, Error: a.Error, Wait: wait})
		}
		select {
		case <-ctx.Done():
			s.finishFailed(o, policy.Cancelled, "cancelled while waiting to retry", "")
			return
		case <-time.After(wait):
		}
	}
}

func (s *Session) finishOK(o *Outcome, tool *Tool, res *Result) {
	o.Result, o.ResultSize, o.IsError = res, res.Size, res.IsError
	o.Content, o.StructuredContent = res.RawContent, res.Structured
	switch verr := tool.ValidateOutput(res.Structured); {
	case verr != nil:
		o.OutputSchemaError = verr.Error()
	case tool.OutputSchema != nil && res.Structured == nil && !res.IsError:
		// The spec: a tool with an output schema MUST return structured results.
		o.OutputSchemaError = "the tool declares an output schema but sent no structuredContent"
	}
	o.Status = StatusOK
	if res.IsError {
		o.Status = StatusToolError
	}
}

func (s *Session) finishFailed(o *Outcome, f policy.Failure, msg, why string) {
	o.Status = StatusFailed
	if f == policy.Cancelled {
		o.Status = StatusCancelled
		msg = "cancelled by the user (the server was told)"
		why = ""
	}
	if why != "" {
		msg += "; " + why
	}
	o.Err = &CallError{Failure: f, Msg: msg}
	o.Error = msg
}

// progressLinger is how long a finished call still receives progress.
const progressLinger = time.Second

// TimeoutError is a call that got no answer within its timeout.
type TimeoutError struct {
	After time.Duration
	// Hard: the limit progress does not extend was reached.
	Hard bool
}

func (e *TimeoutError) Error() string {
	if e.Hard {
		return fmt.Sprintf("no answer within the hard limit of %s (the server was told to cancel)", e.After)
	}
	return fmt.Sprintf("no answer or progress within %s (the server was told to cancel)", e.After)
}

func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// attempt sends the call once, with fresh params (the SDK mutates them), and
// reads the result the wire tap kept.
func (s *Session) attempt(ctx context.Context, conn *connection, c *Call, tool *Tool, timeout, maxDur time.Duration) (*Result, error, callWire) {
	token := fmt.Sprintf("mcpsh-%d", s.seq.Add(1))
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
		// The SDK hands a response to its caller before it has run the handlers
		// of notifications that came earlier on the wire, so the route stays a
		// moment for progress that was sent before the answer.
		time.AfterFunc(progressLinger, func() { s.progress.Delete(token) })
	}()

	args := c.Args
	if args == nil {
		// Never send null: go-sdk servers panic on null arguments to a tool
		// whose schema has defaults.
		args = map[string]any{}
	}
	params := &mcp.CallToolParams{Name: tool.Name, Arguments: args}
	params.SetProgressToken(token)
	_, err := conn.cs.CallTool(actx, params)
	raw, captured := conn.tap.takeResult(token)
	wire := conn.tap.wireOf(token)
	conn.tap.forget(token)
	if err != nil {
		var te *TimeoutError
		if errors.As(context.Cause(actx), &te) && ctx.Err() == nil {
			return nil, te, wire
		}
		return nil, err, wire
	}
	if !captured {
		return nil, fmt.Errorf("the answer to %s never reached mcpsh's reader", tool.Name), wire
	}
	res, err := parseResult(raw)
	return res, err, wire
}
