package client

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/policy"
)

// Defaults for a call's limits, used when neither the call nor the server's
// configuration sets them.
const (
	DefaultTimeout     = 60 * time.Second
	DefaultMaxDuration = 10 * time.Minute
	DefaultAttempts    = 4
	DefaultRetryMax    = 30 * time.Second
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
	// Zero takes the server's configured timeout, else DefaultTimeout; a
	// negative value means no timeout (MaxDuration still applies).
	Timeout time.Duration
	// MaxDuration bounds one attempt however much progress the server reports.
	MaxDuration time.Duration
	// Attempts is the most attempts the call may take; zero takes the server's
	// configured retries, else DefaultAttempts. Only replay-safe calls use more
	// than one, unless an attempt provably never reached the server.
	Attempts int
	// RetryMax bounds the time spent retrying; zero takes the configured value.
	RetryMax time.Duration

	// OnProgress receives the server's progress notifications for this call. It
	// runs on an SDK goroutine and must not block.
	OnProgress func(Progress)
	// OnRetry hears of each failed attempt that will be retried, before the wait.
	OnRetry func(RetryNotice)
}

// RetryNotice describes a failed attempt that is about to be retried.
type RetryNotice struct {
	Attempt, Of int
	Failure     policy.Failure
	Error       string
	Wait        time.Duration
}

func (n RetryNotice) String() string {
	return fmt.Sprintf("attempt %d of %d failed (%s); next in %.1fs", n.Attempt, n.Of, n.Error, n.Wait.Seconds())
}

func (c *Call) limits(t Target) (timeout, maxDur time.Duration, attempts int, retryMax time.Duration) {
	timeout, maxDur, attempts, retryMax = c.Timeout, c.MaxDuration, c.Attempts, c.RetryMax
	if timeout == 0 {
		timeout = t.Timeout
	}
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if maxDur == 0 {
		maxDur = DefaultMaxDuration
	}
	if attempts == 0 {
		attempts = t.Retries
	}
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	if retryMax == 0 {
		retryMax = t.RetryMax
	}
	if retryMax == 0 {
		retryMax = DefaultRetryMax
	}
	return timeout, maxDur, attempts, retryMax
}

// Decide is the policy's decision for the call; nothing is sent.
func (s *Session) Decide(c *Call) policy.Decision {
	_, _, attempts, _ := c.limits(s.Target)
	d := policy.Decide(policy.Request{
		Tool:           c.Tool.Name,
		Hints:          c.Tool.Hints,
		Trust:          s.Target.Trust,
		Mode:           c.Mode,
		Yes:            c.Yes,
		ReadOnly:       c.ReadOnly,
		Rules:          s.Target.Rules,
		SessionAllowed: c.SessionAllowed,
		MaxAttempts:    attempts,
	})
	if c.Approved {
		d = d.Approve()
	}
	return d
}

// Do validates the arguments, asks policy, and sends the call only when policy
// says run, retrying what is safe to retry. Every call that gets past
// validation is recorded before Do returns, refusals included.
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
		s.execute(ctx, c, d, o)
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
		o.LogError = err.Error()
		s.emit(Event{Kind: EventLog, Level: "error", Logger: "mcpsh", Text: "session log: " + err.Error()})
	}
}
