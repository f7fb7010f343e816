package cli

import (
	"context"
	"errors"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
)

// Exit codes, documented in `mcpsh --help` and the README. Scripts depend on them.
const (
	ExitOK          = 0   // everything worked
	ExitFailure     = 1   // connect, transport or protocol failure; for audit: it could not run, or not all of it
	ExitUsage       = 2   // usage or invalid arguments; nothing was sent
	ExitToolError   = 3   // the tool ran and returned isError
	ExitRefused     = 4   // refused by policy: needs confirmation, denied, or --read-only
	ExitFindings    = 5   // audit ran and found something at or above --fail-on (apart from 1, so a CI gate tells the two apart)
	ExitInterrupted = 130 // interrupted (Ctrl-C)
)

// usageError is a mistake in how mcpsh was invoked; nothing was sent.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// shapeError is a command line of the wrong shape (an unknown flag, a
// missing or extra argument), the only mistake that --help answers: the
// message ends by pointing at the help of the command that was run. Other
// usage errors already say what to do.
type shapeError struct {
	usageError
	cmd string // the command's path, "mcpsh call"
}

func (e *shapeError) Unwrap() error { return &e.usageError }

// exitError carries a code for a failure already reported to the user.
type exitError struct{ code int }

func (e *exitError) Error() string { return "" }

// ExitCode maps an error to the process exit status, in one place.
func ExitCode(err error) int {
	var (
		ee *exitError
		ue *usageError
		cu *client.UsageError
		ae *client.ArgError
		ce *config.Error
		re *client.RefusedError
	)
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &ue), errors.As(err, &cu), errors.As(err, &ae), errors.As(err, &ce):
		return ExitUsage
	case errors.As(err, &re):
		return ExitRefused
	}
	return ExitFailure
}

// statusCode is the exit status for a call that ended with status s.
func statusCode(s client.Status) int {
	switch s {
	case client.StatusOK, client.StatusTask:
		return ExitOK
	case client.StatusToolError:
		return ExitToolError
	case client.StatusRefused:
		return ExitRefused
	case client.StatusCancelled:
		return ExitInterrupted
	}
	return ExitFailure
}

// severity orders exit codes for `run`, where calls end differently: an
// interruption outranks a failure, which outranks a refusal, which outranks a
// tool error. The worst thing that happened is what a script should see.
func severity(code int) int {
	switch code {
	case ExitInterrupted:
		return 5
	case ExitFailure:
		return 4
	case ExitUsage:
		return 3
	case ExitRefused:
		return 2
	case ExitToolError:
		return 1
	}
	return 0
}

func worse(a, b int) int {
	if severity(b) > severity(a) {
		return b
	}
	return a
}
