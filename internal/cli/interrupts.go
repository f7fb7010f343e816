package cli

import "context"

type caughtKey struct{}

// WithSignalsCaught returns a context whose command starts only once wait
// has returned: main catches interrupts on another goroutine while the
// command line is read, and no command may start a server before an
// interrupt reaches mcpsh's handler rather than ending mcpsh.
func WithSignalsCaught(ctx context.Context, wait func()) context.Context {
	return context.WithValue(ctx, caughtKey{}, wait)
}

// waitSignalsCaught calls what WithSignalsCaught set, if anything.
func waitSignalsCaught(ctx context.Context) {
	if wait, _ := ctx.Value(caughtKey{}).(func()); wait != nil {
		wait()
	}
}
