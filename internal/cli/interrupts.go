package cli

import (
	"context"
	"sync"
)

type heardKey struct{}

// WithInterruptsPending returns a context under which a command waits,
// before it runs, for heard: the process's interrupt handler is in place.
// Installing one has the Go runtime start a thread of its own for signals,
// about a fifth of a millisecond at every start; main installs it beside
// the parse of the command line rather than before it, and no command
// starts a server or sends a call before an interrupt would cancel it (and
// be recorded) instead of ending mcpsh on the spot.
func WithInterruptsPending(ctx context.Context) (context.Context, func()) {
	ch := make(chan struct{})
	var once sync.Once
	return context.WithValue(ctx, heardKey{}, (<-chan struct{})(ch)), func() { once.Do(func() { close(ch) }) }
}

// awaitInterrupts waits until interrupts are heard (WithInterruptsPending),
// or ctx ends first: then it returns ctx's error and nothing may run.
func awaitInterrupts(ctx context.Context) error {
	heard, _ := ctx.Value(heardKey{}).(<-chan struct{})
	if heard == nil {
		return nil
	}
	select {
	case <-heard:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
