package client

import (
	"context"
	"testing"
	"time"
)

// generous bounds work whose speed a test does not judge (a 20 MiB answer
// under -race on a loaded machine): it ends only shortly before the test
// binary's own deadline (go test -timeout), so slowness is never taken for
// a failure, and a hang still fails as this test rather than as a panic of
// the whole binary. Calls made under it take Timeout: -1 (no wait bound of
// their own).
func generous(t *testing.T) context.Context {
	t.Helper()
	end, ok := t.Deadline()
	if !ok {
		end = time.Now().Add(10 * time.Minute)
	}
	ctx, cancel := context.WithDeadline(context.Background(), end.Add(-min(time.Until(end)/10, 30*time.Second)))
	t.Cleanup(cancel)
	return ctx
}
