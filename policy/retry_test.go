package policy

import (
	"strings"
	"testing"
)

func TestRetry(t *testing.T) {
	safe := Decide(Request{Tool: "get", Hints: readOnly, Trust: Trusted, Mode: Batch, MaxAttempts: 4})
	write := Decide(Request{Tool: "add", Hints: additive, Trust: Trusted, Mode: Batch, MaxAttempts: 4})
	untrusted := Decide(Request{Tool: "get", Hints: readOnly, Trust: Untrusted, Mode: Batch, Preapproved: true, MaxAttempts: 4})
	tests := []struct {
		name    string
		d       Decision
		f       Failure
		attempt int
		retry   bool
		reason  string
	}{
		{"replay-safe server error", safe, ServerError, 1, true, "replay-safe"},
		{"replay-safe timeout", safe, Timeout, 3, true, ""},
		{"replay-safe crash", safe, ConnectionLost, 2, true, ""},
		{"replay-safe 503", safe, Rejected, 1, true, ""},
		{"budget spent", safe, ServerError, 4, false, "gave up after 4 attempts"},
		{"write server error", write, ServerError, 1, false, "may or may not have run; not retried because the tool is not idempotent"},
		{"write crash", write, ConnectionLost, 1, false, "not idempotent"},
		{"write timeout", write, Timeout, 1, false, "not idempotent"},
		{"write 5xx", write, Rejected, 1, false, "not idempotent"},
		{"untrusted", untrusted, ServerError, 1, false, "because the server is untrusted"},
		{"never sent: any call", write, NotSent, 1, true, "never reached the server"},
		{"never sent: budget", write, NotSent, 4, false, "in 4 attempts"},
		{"tool error", safe, ToolError, 1, false, "its answer"},
		{"permanent", safe, Permanent, 1, false, "cannot help"},
		{"cancelled", safe, Cancelled, 1, false, "cancelled"},
		{"oversized, replay-safe", safe, Oversized, 1, false, "larger than mcpsh accepts; sending the call again would bring the same"},
		{"oversized, write", write, Oversized, 1, false, "larger than mcpsh accepts"},
		{"oversized, untrusted", untrusted, Oversized, 1, false, "larger than mcpsh accepts"},
		{"protocol violation, replay-safe", safe, ProtocolViolation, 1, false, "broke the protocol; that is not transient"},
		{"protocol violation, write", write, ProtocolViolation, 1, false, "broke the protocol"},
		{"too many rounds, replay-safe", safe, TooManyRounds, 1, false, "kept asking for more input"},
		{"round not sent, replay-safe", safe, RoundNotSent, 1, false, "stopped between rounds"},
	}
	for _, tt := range tests {
		got, why := Retry(tt.d, tt.f, tt.attempt, 4)
		if got != tt.retry || !strings.Contains(why, tt.reason) {
			t.Errorf("%s: Retry = %v %q, want %v %q", tt.name, got, why, tt.retry, tt.reason)
		}
	}
}

// TestRetryNeverReplaysWhatMayHaveRun checks, over every hint combination and
// failure class, that only replay-safe calls are sent again after a failure
// that may have had an effect.
func TestRetryNeverReplaysWhatMayHaveRun(t *testing.T) {
	values := []Hint{Absent, False, True}
	failures := Failures
	for _, ro := range values {
		for _, de := range values {
			for _, id := range values {
				for _, trust := range []Trust{Trusted, Untrusted} {
					h := Hints{ReadOnly: ro, Destructive: de, Idempotent: id}
					d := Decide(Request{Tool: "t", Hints: h, Trust: trust, Mode: Batch, Preapproved: true, MaxAttempts: 4})
					for _, f := range failures {
						for attempt := 1; attempt <= 5; attempt++ {
							again, _ := Retry(d, f, attempt, 4)
							if again && f.MayHaveRun() && !(trust == Trusted && (h.Effective().ReadOnly || h.Effective().Idempotent)) {
								t.Errorf("%+v %s: %s after attempt %d would be replayed", h, trust, f, attempt)
							}
							if again && attempt >= 4 {
								t.Errorf("%+v: retried past the budget", h)
							}
							if again && (f == ToolError || f == Permanent || f == Cancelled || f == Oversized || f == ProtocolViolation || f == TooManyRounds || f == RoundNotSent) {
								t.Errorf("%s retried", f)
							}
						}
					}
				}
			}
		}
	}
}

// TestViolationsMayHaveRun: a server that broke the protocol, kept asking for
// input, or was sent a round before the call stopped, had answered by then;
// what it did is unknown.
func TestViolationsMayHaveRun(t *testing.T) {
	for f, wire := range map[Failure]string{ProtocolViolation: "protocol_violation", TooManyRounds: "too_many_rounds", RoundNotSent: "round_not_sent"} {
		if !f.MayHaveRun() {
			t.Errorf("%s: a server that answered may have run the call", f)
		}
		if string(f) != wire {
			t.Errorf("%s = %q: the session log records this string", wire, f)
		}
	}
}

func TestOversizedRan(t *testing.T) {
	if !Oversized.MayHaveRun() {
		t.Error("an oversized answer came from a call that ran")
	}
	if Oversized != "result_too_large" {
		t.Errorf("Oversized = %q: the session log records this string", Oversized)
	}
}
