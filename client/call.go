package client

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Call is one call a person or a script asked for.
type Call struct {
	Tool *Tool
	Args map[string]any
	Mode policy.Mode
	// Yes and ReadOnly are --yes and --read-only.
	Yes, ReadOnly bool
	// SessionAllowed: the user allowed this tool for the rest of the session.
	SessionAllowed bool
	// Approved: the user answered yes to this call's confirmation.
	Approved bool
	// Declined: the user answered no. The call is recorded as refused.
	Declined bool
	// Timeout bounds the wait for an answer; progress notifications restart it.
	Timeout time.Duration
	// OnProgress receives the server's progress notifications for this call. It
	// runs on an SDK goroutine and must not block.
	OnProgress func(Progress)
}

// Decide is the policy's decision for the call; nothing is sent.
func (s *Session) Decide(c *Call) policy.Decision {
	d := policy.Decide(policy.Request{
		Tool:           c.Tool.Name,
		Hints:          c.Tool.Hints,
		Trust:          s.Target.Trust,
		Mode:           c.Mode,
		Yes:            c.Yes,
		ReadOnly:       c.ReadOnly,
		Rules:          s.Target.Rules,
		SessionAllowed: c.SessionAllowed,
	})
	if c.Approved {
		d = d.Approve()
	}
	return d
}

// Do validates the arguments, asks policy, and sends the call only when policy
// says run. Every call that gets past validation is recorded, refusals included.
// The error is an *ArgError or *UsageError, for input that was never a call.
func (s *Session) Do(ctx context.Context, c *Call) (*Outcome, error) {
	if c.Tool == nil {
		return nil, usagef("no tool given")
	}
	if err := c.Tool.Validate(c.Args); err != nil {
		return nil, err
	}
	d := s.Decide(c)
	o := s.newOutcome(c, d)
	start := s.now()
	switch {
	case c.Declined:
		o.refuse("declined by the user")
	case d.Verdict != policy.Run:
		o.refuse(d.Reason)
	default:
		s.execute(ctx, c, o)
	}
	o.DurationMS = ms(s.now().Sub(start))
	s.record(o)
	return o, nil
}

func (o *Outcome) refuse(reason string) {
	o.Status, o.Decision, o.Reason, o.ApprovedBy = StatusRefused, policy.Refuse, reason, ""
	o.Err = &RefusedError{Tool: o.Tool, Reason: reason}
	o.Error = o.Err.Error()
}

func (s *Session) record(o *Outcome) {
	if s.opts.Recorder == nil {
		return
	}
	if err := s.opts.Recorder(o); err != nil {
		s.emit(Event{Kind: EventLog, Level: "error", Logger: "mcpsh", Text: "session log: " + err.Error()})
	}
}

func (s *Session) execute(ctx context.Context, c *Call, o *Outcome) {
	start := s.now()
	res, err := s.attempt(ctx, c)
	a := Attempt{N: 1, DurationMS: ms(s.now().Sub(start))}
	if err != nil {
		a.Error = err.Error()
	}
	o.Attempts = append(o.Attempts, a)
	switch {
	case err == nil:
		o.Result, o.ResultSize, o.IsError = res, res.Size, res.IsError
		o.Content, o.StructuredContent = res.RawContent, res.Structured
		if verr := c.Tool.ValidateOutput(res.Structured); verr != nil {
			o.OutputSchemaError = verr.Error()
		}
		o.Status = StatusOK
		if res.IsError {
			o.Status = StatusToolError
		}
	case ctx.Err() != nil:
		o.Status, o.Err = StatusCancelled, err
		o.Error = "cancelled: " + err.Error()
	default:
		o.Status, o.Err, o.Error = StatusFailed, err, err.Error()
	}
}

// progressLinger is how long a finished call still receives progress.
const progressLinger = time.Second

// TimeoutError is a call that got no answer, and no progress, within its timeout.
type TimeoutError struct{ After time.Duration }

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s (the server was told to cancel)", e.After)
}

func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// attempt sends the call once, with fresh params (the SDK mutates them), and
// reads the result the wire tap kept.
func (s *Session) attempt(ctx context.Context, c *Call) (*Result, error) {
	conn := s.current()
	token := fmt.Sprintf("mcpsh-%d", s.seq.Add(1))
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var timer *time.Timer
	if c.Timeout > 0 {
		timer = time.AfterFunc(c.Timeout, func() { cancel(&TimeoutError{After: c.Timeout}) })
		defer timer.Stop()
	}
	var done atomic.Bool
	s.progress.Store(token, func(p Progress) {
		if timer != nil && !done.Load() {
			timer.Reset(c.Timeout)
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
		args = map[string]any{}
	}
	params := &mcp.CallToolParams{Name: c.Tool.Name, Arguments: args}
	params.SetProgressToken(token)
	_, err := conn.cs.CallTool(actx, params)
	raw, captured := conn.tap.takeResult(token)
	conn.tap.forget(token)
	if err != nil {
		var te *TimeoutError
		if errors.As(context.Cause(actx), &te) && ctx.Err() == nil {
			return nil, te
		}
		return nil, err
	}
	if !captured {
		return nil, fmt.Errorf("the answer to %s never reached mcpsh's reader", c.Tool.Name)
	}
	return parseResult(raw)
}
