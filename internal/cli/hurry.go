package cli

import (
	"context"
	"sync"
)

type hurryKey struct{}

// WithHurry returns a context that carries a hurry, and the function that
// sets it off: a second interrupt. The commands then end as fast as they
// can, still writing the log entry of every call that was sent (a stdio
// server is given no grace to end: client.Options.Hurry).
func WithHurry(ctx context.Context) (context.Context, func()) {
	ch := make(chan struct{})
	var once sync.Once
	return context.WithValue(ctx, hurryKey{}, (<-chan struct{})(ch)), func() { once.Do(func() { close(ch) }) }
}

// hurryOf is the hurry ctx carries, or nil (never set off).
func hurryOf(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(hurryKey{}).(<-chan struct{})
	return ch
}
