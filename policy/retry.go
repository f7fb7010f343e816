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
	// request, unknown method or tool, invalid params). Repeating cannot help.
	Permanent Failure = "permanent"
	// ToolError: the tool ran and answered isError. That is its answer.
	ToolError Failure = "tool_error"
	// Cancelled: the user cancelled the call.
	Cancelled Failure = "cancelled"
	// Oversized: the server answered, but the answer was larger than mcpsh
	// accepts. The call ran, and the same call would bring the same answer.
	Oversized Failure = "result_too_large"
)

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
