package client

import (
	"bytes"
	"context"
	"encoding/json"
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
	// Preapproved: the caller approved in advance every call that would
	// otherwise ask a person (a script's standing yes). It never beats a deny
	// rule or OnlyReadOnly.
	Preapproved bool
	// OnlyReadOnly refuses the call unless it is effectively read-only on a
	// trusted server.
	OnlyReadOnly bool
	// SessionAllowed: the user allowed this tool for the rest of the session.
	SessionAllowed bool
	// Approved: a person answered yes to this call's confirmation;
	// ApprovedBy says who (policy.ByUser when empty: the user at this
	// program; policy.ByHost, policy.ByConsole for an agent's calls).
	Approved   bool
	ApprovedBy policy.Approver
	// Declined: the user answered no. The call is recorded as refused.
	Declined bool
	// Checked is the tool Args were already validated against (run checks a
	// whole script before it sends anything). Do checks them again only
	// when the call is decided on another listing of the tool.
	Checked *Tool

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
	// OnTask hears of the task the server runs the call as (task.go): once
	// when it is created, then at each change of its status or status
	// message, until it ends. It runs on the goroutine that follows the
	// task and must not block. Cancelling Do's context cancels the task
	// (tasks/cancel).
	OnTask func(Task)
	// Detach: when the server runs the call as a task, Do returns as soon
	// as the task exists, with StatusTask, instead of following it to its
	// result; GetTask and CancelTask act on it later.
	Detach bool

	// RawArgs, when set, are sent as the arguments, byte for byte but for
	// whitespace (a proxy passes its host's on: decoding and encoding them
	// would change integers past 2^53). Args must then hold them decoded:
	// they are what is validated and logged.
	RawArgs json.RawMessage
	// Meta are _meta members sent with the call besides mcpsh's own (a
	// proxy forwards its host's). progressToken and the
	// io.modelcontextprotocol/ members belong to the connection and are
	// never taken from here.
	Meta map[string]json.RawMessage
	// Approve, when set, is asked by Do when the decision on the tool as
	// declared now is to confirm (approve.go). Nil: such a call is refused,
	// unless Approved or Declined already says what a person answered.
	Approve func(context.Context, *Approval) Answer
	// Host is the agent's host a proxy makes the call for; the outcome
	// records it.
	Host *Peer
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
		Preapproved:    c.Preapproved,
		OnlyReadOnly:   c.OnlyReadOnly,
		Rules:          s.Target.Rules,
		SessionAllowed: c.SessionAllowed,
		MaxAttempts:    attempts,
	})
	if c.Approved {
		d = d.ApproveBy(c.ApprovedBy)
	}
	return d
}

// Do validates the arguments, asks policy, and sends the call only when policy
// says run, retrying what is safe to retry. Every call that gets past
// validation is recorded before Do returns, refusals included, and so is
// every call that was sent, whatever happens after.
// The error is an *ArgError or *UsageError, for input that was never a call.
//
// c.Tool is the tool as the caller saw it. When the server has since said its
// tools changed, the call is decided on the new listing; an approval the user
// gave for other hints does not carry over.
func (s *Session) Do(ctx context.Context, c *Call) (*Outcome, error) {
	if c.Tool == nil {
		return nil, usagef("no tool given")
	}
	if s.opts.ListOnly {
		return nil, usagef("%s: this session only lists (it does not hear the server's list changes), so it makes no calls; nothing was sent", safeText(c.Tool.Name))
	}
	start := s.now()
	tool, ferr := s.refresh(ctx, c.Tool.Name)
	if ferr == nil && tool != c.Checked {
		if err := tool.Validate(c.Args); err != nil {
			if tool == c.Tool || bytes.Equal(tool.InputSchema, c.Tool.InputSchema) {
				return nil, err // the arguments were wrong all along
			}
			ferr = err
		}
	}
	if ferr != nil {
		// The server changed its tools under the call: nothing is sent.
		o := s.newOutcome(c, c.Tool, s.Decide(c))
		o.failNotSent(s.Target.Redact(notSentBecause(c.Tool.Name, ferr)))
		o.DurationMS = ms(s.now().Sub(start))
		s.record(o)
		return o, nil
	}
	d := s.decideFor(c, tool)
	o := s.newOutcome(c, tool, d)
	if tool != c.Tool {
		o.redecided(c.Tool, tool, d)
	}
	var ans *Answer
	if d.Verdict == policy.Ask && c.Approve != nil && !c.Approved && !c.Declined {
		var a Answer
		c, d, a = s.askApproval(ctx, c, tool, d)
		ans = &a
		o.Decision, o.Reason, o.ApprovedBy = d.Verdict, d.Reason, d.By
	}
	defer func() {
		// Whatever fails after the call went out, the entry is written.
		if p := recover(); p != nil {
			o.Status, o.Error = StatusFailed, fmt.Sprintf("mcpsh failed while handling the call: %v", p)
			s.record(o)
			panic(p)
		}
	}()
	switch {
	case ans != nil && ans.Verdict != AnswerApproved:
		o.refuseUnapproved(ctx, d, *ans)
	case c.Declined:
		o.refuse(declinedBy(c.ApprovedBy))
		o.Need = policy.NeedNothing
	case d.Verdict != policy.Run:
		reason := d.Reason
		if o.HintsChanged != "" {
			reason += "; the server changed the tool's hints since it was listed: " + o.HintsChanged
		}
		o.refuse(reason)
	default:
		s.execute(ctx, c, tool, d, o)
	}
	o.DurationMS = ms(s.now().Sub(start))
	s.record(o)
	return o, nil
}

// declinedBy says who answered no to a confirmation.
func declinedBy(by policy.Approver) string {
	switch by {
	case policy.ByHost:
		return "declined by the host's user"
	case policy.ByConsole:
		return "declined at the console"
	}
	return "declined by the user"
}

func (o *Outcome) refuse(reason string) {
	o.Status, o.Decision, o.Reason, o.ApprovedBy = StatusRefused, policy.Refuse, reason, ""
	o.Err = &RefusedError{Tool: o.Tool, Reason: reason}
	o.Error = o.Err.Error()
}

// failNotSent ends a call that was never sent for a reason other than policy.
func (o *Outcome) failNotSent(msg string) {
	o.Status, o.Error = StatusFailed, msg
	o.Err = &CallError{Failure: policy.NotSent, Msg: msg}
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
