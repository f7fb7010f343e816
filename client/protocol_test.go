package client

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/policy"
)

// A stdio server that does not know the 2026-07-28 handshake and does not say
// so (it ignores server/discover, or exits on it) is started again and
// spoken to with 2025-11-25; one that answers "method not found" gets the
// same on its first connection, and one that knows 2026-07-28 speaks it.
func TestProtocolFallsBackForServersThatDoNotAnswerDiscover(t *testing.T) {
	old := discoverProbe
	discoverProbe = 300 * time.Millisecond
	defer func() { discoverProbe = old }()
	for _, c := range []struct {
		scenario, want string
		warned         bool
	}{
		{"ignores-unknown", "2025-11-25", true},
		{"exits-on-unknown", "2025-11-25", true},
		{"plain", "2025-11-25", false},
	} {
		target, _ := fixtureTarget(t, c.scenario)
		var mu sync.Mutex
		var warnings []string
		s := connectFixture(t, target, &Options{OnWarning: func(w string) { mu.Lock(); warnings = append(warnings, w); mu.Unlock() }})
		if got := s.Server().Protocol; got != c.want {
			t.Errorf("%s: protocol %q, want %q", c.scenario, got, c.want)
		}
		mu.Lock()
		warned := strings.Contains(strings.Join(warnings, "\n"), "did not take the 2026-07-28 handshake")
		mu.Unlock()
		if warned != c.warned {
			t.Errorf("%s: warned %v, want %v: %q", c.scenario, warned, c.warned, warnings)
		}
		// The session works, and a restart keeps the version that worked.
		if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "read"), Mode: policy.Batch}); o.Status != StatusOK || o.Protocol != c.want {
			t.Errorf("%s: call %s (%s), protocol in the log %q", c.scenario, o.Status, o.Error, o.Protocol)
		}
	}
	// go-sdk's own servers speak 2026-07-28.
	s := connectCounting(t, newCountingServer())
	if got := s.Server().Protocol; got != LatestProtocol {
		t.Errorf("go-sdk server: protocol %q, want %q", got, LatestProtocol)
	}
}

func TestUnknownProtocolIsRefusedBeforeAnythingStarts(t *testing.T) {
	_, err := Connect(context.Background(), Target{Kind: KindStdio, Command: "/nonexistent"}, &Options{ProtocolVersion: "2025-13-40"})
	if err == nil || !strings.Contains(err.Error(), `unknown protocol version "2025-13-40"`) {
		t.Fatalf("err %v", err)
	}
}
