package policy

import "fmt"

// Failure is how an attempt at a call failed, classified at the client boundary.
// The class decides whether sending the call again is safe.
type Failure string

const (
	// NotSent: the request provably never reached the server (no connection,
	// the write failed). It cannot have run.
	NotSent Failure = "not_sent"
	// Rejected: the transport turned the request away (HTTP 429 or 5xx,
	// JSON-RPC -32005). For 5xx the server may have started on it.
	Rejected Failure = "transport_rejected"
	// ServerError: a JSON-RPC error with a server code. It may have run.
	ServerError Failure = "server_error"
	// Timeout: no answer in time; the server was told to cancel. It may have run.
	Timeout Failure = "timeout"
	// ConnectionLost: the server died or its session vanished mid-call. It may have run.
	ConnectionLost Failure = "connection_lost"
	// Permanent: the server refused the request itself (parse error, invalid
	// request, unknown method or tool, invalid params, a client capability
	// the request needs, a protocol version or headers it will not take).
	// It never ran, and the same request would be refused the same way.
	Permanent Failure = "permanent"
	// ToolError: the tool ran and answered isError. That is its answer.
	ToolError Failure = "tool_error"
	// Cancelled: the user cancelled the call.
	Cancelled Failure = "cancelled"
	// Oversized: the server answered, but the answer was larger than mcpsh
	// accepts. The call ran, and the same call would bring the same answer.
	Oversized Failure = "result_too_large"
	// ProtocolViolation: the server answered with something the protocol does
	// not allow (a malformed request for more input, a result of a type no
	// version defines). It answered, so the call may have run; the same call
	// would bring the same answer.
	ProtocolViolation Failure = "protocol_violation"
	// TooManyRounds: the server kept asking for more input, past the rounds a
	// call may take. Earlier rounds reached it, so the call may have run.
	TooManyRounds Failure = "too_many_rounds"
	// RoundNotSent: the server asked for more input, and the round that would
	// have carried it was not sent: the decision made again before it was not
	// to run (the server had re-declared the tool), or the tool or the
	// session was gone. Earlier rounds reached the server, so the call may
	// have run in part.
	RoundNotSent Failure = "round_not_sent"
)

// Failures are every failure class, in the order the retry matrix shows them.
var Failures = []Failure{NotSent, Rejected, ServerError, Timeout, ConnectionLost, Permanent, ToolError, Cancelled, Oversized, ProtocolViolation, TooManyRounds, RoundNotSent}

// MayHaveRun reports whether a call that failed this way could have had an effect.
func (f Failure) MayHaveRun() bool {
	switch f {
	case NotSent, Permanent:
		return false
	}
	return true
}

// Retry decides whether to send a call again after attempt number attempt
// (from 1) failed with f. budget is the most attempts any call may take; a
// replay-safe call may use all of them, any other call only the ones whose
// failure proves it never reached the server.
//
// A call the server answers in rounds (it asks for more input, and the call
// is sent again with the answers) is one call: a round is not a retry, and
// attempt counts only sends that failed. A send of a later round that failed
// is judged like any other send: it is sent again only if it provably never
// left, or the call is replay-safe.
func Retry(d Decision, f Failure, attempt, budget int) (bool, string) {
	switch f {
	case ToolError:
		return false, "the tool answered with an error; that is its answer, so it is not retried"
	case Permanent:
		return false, "the server rejected the request itself; repeating it cannot help"
	case Cancelled:
		return false, "cancelled"
	case Oversized:
		return false, "the answer was larger than mcpsh accepts; sending the call again would bring the same"
	case ProtocolViolation:
		return false, "the server's answer broke the protocol; that is not transient, so it is not sent again"
	case TooManyRounds:
		return false, "the server kept asking for more input; sending the call again would start the rounds over"
	case RoundNotSent:
		return false, "the call stopped between rounds; sending it again would start the rounds over"
	}
	if budget < 1 {
		budget = 1
	}
	if f == NotSent {
		if attempt >= budget {
			return false, "never reached the server in " + attempts(attempt)
		}
		return true, "never reached the server, so it is safe to send again"
	}
	if !d.ReplaySafe {
		return false, "may or may not have run; not retried because " + d.NotReplaySafe
	}
	if attempt >= d.MaxAttempts {
		return false, "gave up after " + attempts(attempt)
	}
	return true, "replay-safe, so it is sent again"
}

func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}
