package client

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// roundsFixture connects to scenario over transport ("stdio" or "http").
func roundsFixture(t *testing.T, transport, scenario string, opts *Options) (*Session, string) {
	t.Helper()
	var target Target
	var state string
	if transport == "http" {
		var url string
		// Answers of one message come as JSON, with the status the protocol
		// gives an error; answers of several (a notification first) as a stream.
		url, state = fixtureHTTP(t, scenario, fixture.HTTPOptions{})
		target = httpTarget(url)
	} else {
		target, state = fixtureTarget(t, scenario)
	}
	s := connectFixture(t, target, opts)
	if p := s.current().protocol(); p != LatestProtocol {
		t.Fatalf("the fixture speaks %s, want %s", p, LatestProtocol)
	}
	return s, state
}

// Item 19: errors the spec defines for a request the server will refuse
// however often it comes (a capability not declared; at 2026-07-28 over HTTP
// a 404 for a method it does not know, which says nothing of a session) are
// permanent: a read-only call is not sent again, nor the server restarted.
func TestDeterministicRefusalsAreNotRetried(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			s, state := roundsFixture(t, transport, "rounds", nil)
			for tool, want := range map[string]string{
				"needs_caps":     "missing client capability (-32021): client capabilities do not declare sampling",
				"missing_method": "method not found (-32601)",
			} {
				o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, tool), Mode: policy.Batch})
				if o.Status != StatusFailed || len(o.Attempts) != 1 || o.Attempts[0].Failure != string(policy.Permanent) || !strings.Contains(o.Error, want) {
					t.Errorf("%s: status %s, attempts %+v, error %q", tool, o.Status, o.Attempts, o.Error)
				}
				if n := fixture.CountIn(state, "executions", tool); n != 1 {
					t.Errorf("%s reached the server %d times, want 1", tool, n)
				}
			}
			if s.Restarts() != 0 {
				t.Errorf("restarts %d", s.Restarts())
			}
		})
	}
}
