package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
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
// asks with Retry-After. Before every attempt after the first, the session is
// brought back if it went away and the call is decided again on what the
// server declares now: a retry happens only if that decision is still run
// and, for a call that may have run, replay-safe.
//
// A server may answer with requests for more input (SEP-2322): the call is
// then sent again, as the next round, with the answers (rounds.go). A round
// is decided again like a first send, and is not sent unless the decision is
// run. It is not a retry: it takes none of the call's attempts, and the time
// its own retries may take counts from its start. A retry after a failure in
// a round sends that round again, answers and state as they were.
func (s *Session) execute(ctx context.Context, c *Call, tool *Tool, d policy.Decision, o *Outcome) {
	timeout, maxDur, attempts, retryMax := c.limits(s.Target)
	if msg := s.cannotRunAsTask(tool); msg != "" {
		o.Attempts = append(o.Attempts, Attempt{N: 1, Failure: string(policy.NotSent), Error: msg})
		o.failNotSent(msg)
		return
	}
	bo := newBackoff(retryMax)
	deadline := s.now().Add(retryMax)
	rt := newRounds(s)
	var last struct {
		f   policy.Failure
		msg string
	}
	// retrying: the last send failed and the next one sends it again; else
	// the next one is the first send, or the next round.
	retrying := false
	for n := 1; ; {
		if retrying || rt.round > 1 || s.needsRecheck(tool) {
			t, nd, err := s.recheck(ctx, c, tool, deadline, rt.round > 1)
			switch {
			case err != nil && ctx.Err() != nil:
				s.finishFailed(o, policy.Cancelled, "cancelled while reconnecting", "")
				return
			case err != nil && retrying:
				s.finishFailed(o, last.f, last.msg, "not retried: "+err.Error())
				return
			case err != nil && rt.round > 1:
				s.stopBetweenRounds(o, n, rt.round, err.Error())
				return
			case err != nil:
				msg := s.Target.Redact("not sent: " + err.Error())
				o.Attempts = append(o.Attempts, Attempt{N: n, Failure: string(policy.NotSent), Error: msg})
				o.failNotSent(msg)
				return
			}
			if t != tool {
				o.redecided(tool, t, nd)
				tool, d = t, nd
			}
			switch {
			case !retrying && rt.round == 1 && d.Verdict != policy.Run:
				o.refuse(d.Reason + "; the server changed the tool's hints before the call: " + o.HintsChanged)
				return
			case !retrying && d.Verdict != policy.Run:
				why := "policy, asked again, no longer lets it run (" + d.Reason + ")"
				if o.HintsChanged != "" {
					why += "; the server changed the tool's hints during the call: " + o.HintsChanged
				}
				s.stopBetweenRounds(o, n, rt.round, why)
				return
			case retrying:
				again, why := policy.Retry(d, last.f, n-1, attempts)
				if d.Verdict != policy.Run {
					again, why = false, "the new decision is not to run it: "+d.Reason
				}
				if !again {
					if o.HintsChanged != "" {
						why = fmt.Sprintf("not retried: the server's hints changed (%s): %s", o.HintsChanged, why)
					}
					s.finishFailed(o, last.f, last.msg, why)
					return
				}
			}
		}
		if s.opts.BeforeSend != nil {
			s.opts.BeforeSend(o)
		}
		t0 := s.now()
		conn := s.current()
		res, more, task, wire, err := s.attempt(ctx, conn, c, tool, rt.next, timeout, maxDur)
		a := Attempt{N: n, DurationMS: ms(s.now().Sub(t0))}
		if rt.round > 1 {
			a.Round = rt.round
		}
		if rt.round > 1 || more != nil {
			o.Rounds = rt.round
		}
		if err == nil && more != nil {
			err = rt.advance(ctx, more)
			if err == nil {
				// The next send is the next round: not a retry, so its
				// retries get a budget of their own.
				retrying = false
				bo.Reset()
				deadline = s.now().Add(retryMax)
				continue
			}
			f, msg := policy.ProtocolViolation, s.Target.Redact(termtext.Line(err.Error()))
			var re *roundError
			switch {
			case ctx.Err() != nil:
				f, msg = policy.Cancelled, fmt.Sprintf("cancelled while answering the server's request for more input (round %d)", o.Rounds)
			case errors.As(err, &re):
				f, msg = re.failure, s.Target.Redact(re.msg)
			}
			a.Failure, a.Error = string(f), msg
			o.Attempts = append(o.Attempts, a)
			_, why := policy.Retry(d, f, n, attempts)
			s.finishFailed(o, f, msg, why)
			return
		}
		if err == nil && task != nil {
			// The work has started: from here on the call is never sent again.
			o.Attempts = append(o.Attempts, a)
			s.finishTask(ctx, c, conn, tool, o, *task, wire.progressToken, timeout, maxDur)
			return
		}
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
		if f == policy.Cancelled {
			a.Error = cancelledMessage(wire)
		}
		if a.Round > 1 {
			a.Error = fmt.Sprintf("round %d: %s", a.Round, a.Error)
		}
		a.Error = s.Target.Redact(a.Error)
		last.f, last.msg = f, a.Error
		again, why := policy.Retry(d, f, n, attempts)
		if a.Round > 1 && !f.MayHaveRun() {
			why += "; " + earlierRounds(a.Round)
		}
		var wait time.Duration
		if again {
			// Stop first: a server's Retry-After must not revive a spent budget.
			if wait = bo.NextBackOff(); wait != backoff.Stop && wire.retryAfter > wait {
				wait = wire.retryAfter
			}
			if wait == backoff.Stop || s.now().Add(wait).After(deadline) {
				again, why = false, fmt.Sprintf("gave up: another attempt would pass the retry limit of %s", retryMax)
			}
		}
		if f != policy.Cancelled && (f == policy.ConnectionLost || connectionGone(err)) {
			// Bring the session back whether or not this call is retried, so a
			// script goes on with its next line on the new session. The
			// connection may not know yet that it is dead, so do not ask it.
			// A retry must fit the call's budget; otherwise the next call's does.
			until := s.now().Add(retryMax)
			if again {
				until = deadline
			}
			if rerr := s.reconnect(ctx, conn, until); rerr != nil {
				again, why = false, why+"; "+rerr.Error()
			}
			if ctx.Err() != nil {
				o.Attempts = append(o.Attempts, a)
				s.finishFailed(o, policy.Cancelled, "cancelled while reconnecting", "")
				return
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
		retrying = true
		n++
	}
}

// stopBetweenRounds ends a call whose next round is not sent, saying which
// and why; the rounds before it reached the server.
func (s *Session) stopBetweenRounds(o *Outcome, n, round int, why string) {
	o.RoundNotSent = round
	msg := s.Target.Redact(fmt.Sprintf("round %d not sent: %s", round, why))
	o.Attempts = append(o.Attempts, Attempt{N: n, Round: round, Failure: string(policy.RoundNotSent), Error: msg})
	s.finishFailed(o, policy.RoundNotSent, msg, earlierRounds(round))
}

// earlierRounds says what a failure in round n leaves unknown.
func earlierRounds(n int) string {
	if n == 2 {
		return "round 1 had reached the server, so the call may have run in part"
	}
	return fmt.Sprintf("rounds 1 to %d had reached the server, so the call may have run in part", n-1)
}

func newBackoff(limit time.Duration) *backoff.ExponentialBackOff {
	bo := backoff.NewExponentialBackOff()
	bo.InitialInterval = retryInitial
	bo.RandomizationFactor = 0.5
	bo.Multiplier = 2
	bo.MaxInterval = 10 * time.Second
	bo.MaxElapsedTime = limit
	bo.Reset()
	return bo
}

// needsRecheck reports whether the session must be brought back, or the tool
// looked up again, before a call to tool is sent.
func (s *Session) needsRecheck(tool *Tool) bool {
	c := s.current()
	if c.gone() || c.tap.sessionGone.Load() || s.Stale() {
		return true
	}
	t, ok := s.Tool(tool.Name)
	return !ok || t != tool
}

// recheck brings the session back if it went away (a restart lists the tools
// again), lists the tools again if the server said they changed, or always
// when relist is set, and returns the tool as declared now with the call
// decided on it. An error means the call cannot be sent: the session did not
// come back, or the tool is gone, or the arguments no longer fit its schema.
//
// A later round of a call lists them again whatever the server said: the
// round before ran on the server, which may have re-declared the tool as it
// did, and at 2026-07-28 over HTTP its notice comes on a stream of its own,
// with no promise to arrive before the answer.
func (s *Session) recheck(ctx context.Context, c *Call, tool *Tool, deadline time.Time, relist bool) (*Tool, policy.Decision, error) {
	if err := s.ensureConnected(ctx, deadline); err != nil {
		return nil, policy.Decision{}, err
	}
	if relist {
		if _, err := s.ListTools(ctx); err != nil {
			return nil, policy.Decision{}, fmt.Errorf("listing the tools again before the round failed: %w", err)
		}
	}
	t, err := s.refresh(ctx, tool.Name)
	if err == nil {
		err = t.Validate(c.Args)
	}
	if err != nil {
		return nil, policy.Decision{}, errors.New(strings.TrimPrefix(notSentBecause(tool.Name, err), "not sent: "))
	}
	return t, s.decideFor(c, t), nil
}

// cancelledMessage says whether the server heard of a cancellation: mcpsh says
// "the server was told" only once notifications/cancelled is on the wire.
func cancelledMessage(w callWire) string {
	switch {
	case !w.sent:
		return "cancelled by the user before the call reached the server"
	case w.cancelTold:
		return "cancelled by the user (the server was told)"
	default:
		return "cancelled by the user (mcpsh could not tell the server in time)"
	}
}

func (s *Session) finishOK(o *Outcome, tool *Tool, res *Result) {
	o.Result, o.ResultSize, o.IsError = res, res.Size, res.IsError
	o.Content, o.StructuredContent = res.RawContent, res.Structured
	o.Status = StatusOK
	if res.IsError {
		o.Status = StatusToolError
	}
	o.OutputSchemaError = checkOutput(tool, res)
}

// checkOutput says how a result breaks the tool's output schema, or "". The
// call has run by now: a failure of the check itself is reported, never
// allowed to stop the call from being recorded.
func checkOutput(tool *Tool, res *Result) (problem string) {
	defer func() {
		if p := recover(); p != nil {
			problem = fmt.Sprintf("the output schema could not be checked: %v", p)
		}
	}()
	switch verr := tool.ValidateOutput(res.Structured); {
	case verr != nil:
		return verr.Error()
	case tool.OutputSchema != nil && res.Structured == nil && !res.IsError:
		// The spec: a tool with an output schema MUST return structured results.
		return "the tool declares an output schema but sent no structuredContent"
	}
	return ""
}

func (s *Session) finishFailed(o *Outcome, f policy.Failure, msg, why string) {
	o.Status = StatusFailed
	if f == policy.Cancelled {
		o.Status = StatusCancelled
		why = ""
	}
	if why != "" {
		msg += "; " + why
	}
	msg = s.Target.Redact(msg)
	o.Err = &CallError{Failure: f, Msg: msg}
	o.Error = msg
}
