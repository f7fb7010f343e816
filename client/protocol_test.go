package client

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// probeTimes gives o the probe's bounds for a test.
func probeTimes(o *Options, probe, silence time.Duration) *Options {
	o.probeAfter, o.probeSilence = probe, silence
	return o
}

// warnings collects a session's warnings.
type warnings struct {
	mu sync.Mutex
	l  []string
}

func (w *warnings) add(s string) { w.mu.Lock(); w.l = append(w.l, s); w.mu.Unlock() }
func (w *warnings) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.l, "\n")
}

// A stdio server meets the 2026-07-28 probe (server/discover) in one of
// these ways. One that is merely slow to start is waited for, from its
// first byte: started once, no warning. One that ignores the probe is
// answered in its place and goes on with initialize on the same
// connection: started once, and the warning says what happened. One that
// answers the probe only after that is not remembered as one that ignores
// it. Only one that exits on the probe is started again.
func TestProtocolProbeStartsAServerOnceUnlessItExits(t *testing.T) {
	t.Parallel()
	// A case that expects mcpsh to answer the probe for the server gets
	// short bounds; one that expects no cut gets bounds no loaded machine
	// comes near, so only a wrong cut fails it.
	const cut, noCut = 300 * time.Millisecond, 5 * time.Second
	for _, c := range []struct {
		scenario, protocol string
		probe, silence     time.Duration
		starts             int    // -1: the scenario does not count them
		warning            string // "" for none
	}{
		{"slow-discover", LatestProtocol, noCut, 2 * noCut, 1, ""},
		{"plain", "2025-11-25", noCut, 2 * noCut, -1, ""},
		{"ignores-discover", "2025-11-25", cut, 2 * noCut, 1, "the server left server/discover (the 2026-07-28 handshake) unanswered for 300ms after the server first wrote; " +
			"mcpsh went on with initialize on the same connection, without starting the server again: it speaks 2025-11-25"},
		{"ignores-unknown", "2025-11-25", cut, 2 * time.Second, -1, "unanswered for 2s, while the server wrote nothing"},
		{"late-discover", "2025-11-25", cut, 2 * noCut, 1, "the server answered server/discover (the 2026-07-28 handshake) only after mcpsh had gone on with initialize"},
		{"exits-on-discover", "2025-11-25", noCut, 2 * noCut, 2, "the server ended when asked server/discover (the 2026-07-28 handshake), so it was started again and asked with initialize: it speaks 2025-11-25"},
		{"exits-on-unknown", "2025-11-25", noCut, 2 * noCut, -1, "the server ended when asked server/discover"},
		{"late-exits-on-discover", "2025-11-25", cut, 2 * noCut, 2, "the server ended when asked server/discover"},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			t.Parallel()
			target, state := fixtureTarget(t, c.scenario)
			var w warnings
			s := connectFixture(t, target, probeTimes(&Options{OnWarning: w.add}, c.probe, c.silence))
			if got := s.Server().Protocol; got != c.protocol {
				t.Errorf("protocol %q, want %q", got, c.protocol)
			}
			if n := len(fixture.Lines(state, "starts")); c.starts >= 0 && n != c.starts {
				t.Errorf("started %d times, want %d", n, c.starts)
			}
			if got := w.String(); c.warning == "" && got != "" || !strings.Contains(got, c.warning) {
				t.Errorf("warnings %q, want %q", got, c.warning)
			}
			// The session works, and a restart keeps the version that worked.
			if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "read"), Mode: policy.Batch}); o.Status != StatusOK || o.Protocol != c.protocol {
				t.Errorf("call %s (%s), protocol in the log %q", o.Status, o.Error, o.Protocol)
			}
		})
	}
	// go-sdk's own servers speak 2026-07-28.
	s := connectCounting(t, newCountingServer())
	if got := s.Server().Protocol; got != LatestProtocol {
		t.Errorf("go-sdk server: protocol %q, want %q", got, LatestProtocol)
	}
}

// What a server's handshake took is remembered, per server, and its next
// start asks for that version at once: it is not probed, and a server that
// exits on the probe is started once. A memory the server has outgrown is
// forgotten: another name or version, or a refusal of the handshake.
func TestProtocolIsRememberedPerServer(t *testing.T) {
	t.Parallel()
	short := func(o *Options) *Options { return probeTimes(o, 300*time.Millisecond, 2*time.Second) }
	mem := NewHandshakeFile(filepath.Join(t.TempDir(), "state", "handshakes.json"))
	for _, sc := range []string{"ignores-discover", "exits-on-discover"} {
		target, state := fixtureTarget(t, sc)
		for run := 1; run <= 2; run++ {
			var w warnings
			s := connectFixture(t, target, short(&Options{OnWarning: w.add, Handshakes: mem}))
			if got := s.Server().Protocol; got != fallbackProtocol {
				t.Errorf("%s, run %d: protocol %q", sc, run, got)
			}
			if run == 2 && w.String() != "" {
				t.Errorf("%s, run %d: warned again: %q", sc, run, w.String())
			}
			s.Close()
		}
		starts, discovers := len(fixture.Lines(state, "starts")), fixture.CountIn(state, "methods", "server/discover")
		want := map[string]int{"ignores-discover": 2, "exits-on-discover": 3}[sc]
		if starts != want || discovers != 1 {
			t.Errorf("%s: %d starts, %d probes over two runs; want %d and 1", sc, starts, discovers, want)
		}
		if _, ok := mem.Recall(handshakeKey(target)); !ok {
			t.Errorf("%s: nothing remembered", sc)
		}
		// The same command under another name is another server.
		other := target
		other.Name += "-other"
		if _, ok := mem.Recall(handshakeKey(other)); ok {
			t.Errorf("%s: remembered for another name", sc)
		}
	}

	// The server was upgraded since: another version. This session goes on
	// as it started; the memory is forgotten, so the next start probes.
	target, _ := fixtureTarget(t, "ignores-discover")
	key := handshakeKey(target)
	mem.Remember(key, &Handshake{Protocol: fallbackProtocol, Discover: DiscoverUnanswered, Server: "mcpsh-fixture 0", At: time.Now()})
	s := connectFixture(t, target, short(&Options{Handshakes: mem}))
	if _, ok := mem.Recall(key); ok || s.Server().Protocol != fallbackProtocol {
		t.Errorf("an outgrown memory kept (protocol %q)", s.Server().Protocol)
	}

	// From here on every probe is answered at once: bounds no loaded
	// machine comes near, so only a wrong cut fails.
	long := func(o *Options) *Options { return probeTimes(o, 5*time.Second, 10*time.Second) }

	// A server that now speaks only 2026-07-28 refuses the remembered
	// initialize: it is probed, and speaks 2026-07-28.
	target, state := fixtureTarget(t, "discover-only")
	key = handshakeKey(target)
	mem.Remember(key, &Handshake{Protocol: fallbackProtocol, Discover: DiscoverExited, Server: "mcpsh-fixture 1", At: time.Now()})
	var w warnings
	s = connectFixture(t, target, long(&Options{OnWarning: w.add, Handshakes: mem}))
	if got := s.Server().Protocol; got != LatestProtocol || !strings.Contains(w.String(), "the server refused the 2025-11-25 handshake it took before") {
		t.Errorf("protocol %q, warnings %q", got, w.String())
	}
	if got := fixture.Lines(state, "methods"); strings.Join(got, " ") != "initialize server/discover" {
		t.Errorf("handshake requests %q", got)
	}
	if _, ok := mem.Recall(key); ok {
		t.Error("a refused memory kept")
	}

	// One that exits on the remembered initialize instead: it is probed at
	// once, and speaks 2026-07-28; the memory is forgotten (a server that
	// answers the probe needs none).
	target, state = fixtureTarget(t, "discover-only-exits")
	key = handshakeKey(target)
	mem.Remember(key, &Handshake{Protocol: fallbackProtocol, Discover: DiscoverExited, Server: "mcpsh-fixture 1", At: time.Now()})
	w = warnings{}
	s = connectFixture(t, target, long(&Options{OnWarning: w.add, Handshakes: mem}))
	if got := s.Server().Protocol; got != LatestProtocol || !strings.Contains(w.String(), "the server ended when asked with the 2025-11-25 handshake it took before; it was started again to ask for 2026-07-28 first") {
		t.Errorf("exits on initialize: protocol %q, warnings %q", got, w.String())
	}
	if got := fixture.Lines(state, "methods"); strings.Join(got, " ") != "initialize server/discover" || len(fixture.Lines(state, "starts")) != 2 {
		t.Errorf("exits on initialize: handshake requests %q over %d starts", got, len(fixture.Lines(state, "starts")))
	}
	if _, ok := mem.Recall(key); ok {
		t.Error("exits on initialize: the memory kept")
	}

	// One that never answers the remembered initialize: the connection
	// fails at the caller's deadline, and the memory is forgotten, so the
	// next start probes. A caller that gives up first (cancels) says
	// nothing of the server: the memory stays.
	target, state = fixtureTarget(t, "discover-only-hangs")
	key = handshakeKey(target)
	for _, cancelled := range []bool{true, false} {
		mem.Remember(key, &Handshake{Protocol: fallbackProtocol, Discover: DiscoverExited, Server: "mcpsh-fixture 1", At: time.Now()})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if cancelled {
			ctx, cancel = context.WithCancel(context.Background())
			go func() {
				// Polled: the sleep is an interval, not a synchronisation.
				for end := time.Now().Add(testBound); len(fixture.Lines(state, "methods")) == 0 && time.Now().Before(end); {
					time.Sleep(10 * time.Millisecond)
				}
				cancel()
			}()
		}
		if s, err := Connect(ctx, target, long(&Options{Handshakes: mem})); err == nil {
			s.Close()
			t.Fatal("connected to a server that never answers initialize")
		}
		cancel()
		if _, kept := mem.Recall(key); kept != cancelled {
			t.Errorf("hangs on initialize, cancelled %v: memory kept %v", cancelled, kept)
		}
		if got := fixture.Lines(state, "methods"); !cancelled && strings.Join(got, " ") != "initialize initialize" {
			t.Errorf("hangs on initialize: handshake requests %q, want the remembered one each time", got)
		}
	}

	// A memory past its time is not used.
	target, state = fixtureTarget(t, "slow-discover")
	mem.Remember(handshakeKey(target), &Handshake{Protocol: fallbackProtocol, Discover: DiscoverUnanswered, Server: "mcpsh-fixture 1", At: time.Now().Add(-handshakeTTL - time.Hour)})
	s = connectFixture(t, target, long(&Options{Handshakes: mem}))
	if got := s.Server().Protocol; got != LatestProtocol || fixture.CountIn(state, "methods", "server/discover") != 1 {
		t.Errorf("an old memory was used: protocol %q", got)
	}
}

// A server that writes nothing and ignores the probe is answered for in
// time for initialize to fit the connect timeout, however long the silence
// bound: by three quarters of it. The quarter left, 2s, is initialize's on
// a machine that may be busy.
func TestProtocolProbeFitsTheConnectTimeout(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "ignores-unknown")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	var w warnings
	s, err := Connect(ctx, target, probeTimes(&Options{OnWarning: w.add}, 300*time.Millisecond, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Server().Protocol; got != fallbackProtocol || !strings.Contains(w.String(), "while the server wrote nothing") {
		t.Errorf("protocol %q, warnings %q", got, w.String())
	}
}

func TestUnknownProtocolIsRefusedBeforeAnythingStarts(t *testing.T) {
	t.Parallel()
	_, err := Connect(context.Background(), Target{Kind: KindStdio, Command: "/nonexistent"}, &Options{ProtocolVersion: "2025-13-40"})
	if err == nil || !strings.Contains(err.Error(), `unknown protocol version "2025-13-40"`) {
		t.Fatalf("err %v", err)
	}
}

// ProtocolVersions is go-sdk's list; the two versions mcpsh's own code names
// must stay its first two, so that a go-sdk with a newer version fails here
// until someone has looked at what mcpsh does at each.
func TestProtocolVersions(t *testing.T) {
	t.Parallel()
	if !slices.Equal(ProtocolVersions, mcp.SupportedProtocolVersions()) {
		t.Errorf("ProtocolVersions = %v, go-sdk speaks %v", ProtocolVersions, mcp.SupportedProtocolVersions())
	}
	if len(ProtocolVersions) < 2 {
		t.Fatalf("ProtocolVersions = %v: want at least the newest and the fallback", ProtocolVersions)
	}
	for i := 1; i < len(ProtocolVersions); i++ {
		if ProtocolVersions[i] >= ProtocolVersions[i-1] {
			t.Errorf("ProtocolVersions = %v: not newest first (mcpsh's help and auto rely on it)", ProtocolVersions)
		}
	}
	if ProtocolVersions[0] != LatestProtocol {
		t.Errorf("go-sdk's newest version is %s, LatestProtocol %s: check the probe and the rounds (protocol.go, rounds*.go) at %s before moving LatestProtocol", ProtocolVersions[0], LatestProtocol, ProtocolVersions[0])
	}
	if ProtocolVersions[1] != fallbackProtocol {
		t.Errorf("the version below go-sdk's newest is %s, fallbackProtocol %s", ProtocolVersions[1], fallbackProtocol)
	}
	if !slices.Contains(ProtocolVersions, minParamHeaderVersion) {
		t.Errorf("minParamHeaderVersion %s is not a version mcpsh speaks", minParamHeaderVersion)
	}
	for _, v := range append(slices.Clone(ProtocolVersions), ProtocolAuto, "") {
		if err := ValidateProtocol(v); err != nil {
			t.Errorf("ValidateProtocol(%q) = %v", v, err)
		}
	}
	for _, v := range []string{"2025-13-40", "latest", " 2025-11-25"} {
		if err := ValidateProtocol(v); err == nil {
			t.Errorf("ValidateProtocol(%q) = nil, want an error", v)
		}
	}
}
