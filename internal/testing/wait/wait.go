// Package wait is for tests only: waiting for what another goroutine or
// process does, failing the test rather than hanging when it never comes.
// The proxy's and the console's rigs wait with it.
package wait

import (
	"testing"
	"time"
)

// Budget is how long a wait lasts before the test fails: long, so a loaded
// machine is slow rather than failing; nothing waits this long when the
// code works.
const Budget = 60 * time.Second

// Until polls cond until it holds; the sleep is a polling interval, not a
// synchronisation.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Budget)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Recv is the next value on ch.
func Recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(Budget):
		t.Fatalf("gave up waiting for %s", what)
		var zero T
		return zero
	}
}
