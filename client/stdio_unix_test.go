//go:build unix

package client

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// The fake server's "spawn" scenario starts sleep(1), which Windows lacks;
// proc_test.go covers the tree on every platform with the test binary itself.
func TestCloseEndsTheWholeProcessGroup(t *testing.T) {
	t.Parallel()
	s, err := Connect(context.Background(), fakeTarget(t, "spawn"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	deadline := time.Now().Add(testBound)
	for pid == 0 && time.Now().Before(deadline) {
		if m := regexp.MustCompile(`child pid (\d+)`).FindStringSubmatch(strings.Join(s.StderrTail(10), "\n")); m != nil {
			pid, _ = strconv.Atoi(m[1])
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatalf("the fake server did not report its child; stderr: %q", s.StderrTail(10))
	}
	if waitGone(pid, 50*time.Millisecond) {
		t.Fatal("the grandchild died before Close: the test proves nothing")
	}
	start := time.Now()
	s.Close()
	if !waitGone(pid, testBound) {
		t.Fatalf("grandchild %d survived Close", pid)
	}
	t.Logf("Close took %v", time.Since(start))
}

// Closing a session lets a stdio server exit on its own: stdin is closed
// first and stdout still read, so a server that writes on its way out (a
// last answer, a goodbye) is not killed by SIGPIPE. mcpsh closed its end of
// stdout first, and about one bench run in ten lost the server's exit.
func TestCloseLetsTheServerExitOnItsOwn(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "goodbye")
	s := connectFixture(t, target, nil)
	s.Close()
	if n := fixture.CountIn(state, "stopped", "cleanly"); n != 1 {
		t.Fatalf("the server stopped cleanly %d times, want 1 (killed on its way out?)", n)
	}
}
