package client

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ProtocolVersions are the protocol versions mcpsh speaks, newest first:
// go-sdk's, since go-sdk runs every handshake and mcpsh offers no version it
// cannot.
var ProtocolVersions = mcp.SupportedProtocolVersions()

// mcpsh's own code still names two versions, because it does more than pass
// them to go-sdk: the newest, whose handshake is probed (and whose calls may
// come back in rounds), and the one a server that cannot take that handshake
// falls back to. A go-sdk with a newer version fails TestProtocolVersions
// until what mcpsh does at each version has been looked at again.
const (
	// ProtocolAuto asks for the newest version and falls back.
	ProtocolAuto = "auto"
	// LatestProtocol is the newest version mcpsh speaks: ProtocolVersions[0].
	LatestProtocol = "2026-07-28"
	// fallbackProtocol is what a server that does not answer the 2026-07-28
	// probe gets: the newest version with the initialize handshake,
	// ProtocolVersions[1].
	fallbackProtocol = "2025-11-25"
)

// go-sdk starts a 2026-07-28 handshake with server/discover. A server that
// does not know it should answer "method not found", and go-sdk then falls
// back to initialize on the same connection; but some stdio servers ignore
// unknown methods, which would hang the handshake until its deadline, and
// some exit on them (go-sdk issue #1177).
//
// So a stdio server's probe is timed, from the server's first byte (on
// stdout or stderr) rather than from its start: a server that takes long to
// start (npx fetching a package) is merely slow, and is waited for. When the
// probe is still unanswered discoverProbe after the first byte, or
// discoverSilence after the start with no byte at all, mcpsh answers it in
// the server's place with an error, as the wire tap does for an answer too
// large to read, and go-sdk goes on with initialize on the same connection:
// the server is started once. Only a server that exits on the probe is
// started again, since there is no other way to reach it.
const (
	discoverProbe   = 3 * time.Second
	discoverSilence = 15 * time.Second
)

// ValidateProtocol reports a protocol version mcpsh cannot speak.
func ValidateProtocol(v string) error {
	if v == "" || v == ProtocolAuto || slices.Contains(ProtocolVersions, v) {
		return nil
	}
	return &UsageError{fmt.Sprintf("unknown protocol version %q: want auto or one of %s", v, strings.Join(ProtocolVersions, ", "))}
}

// discoverError is a handshake that failed while server/discover had no answer.
type discoverError struct{ err error }

func (e *discoverError) Error() string { return e.err.Error() }
func (e *discoverError) Unwrap() error { return e.err }

// errProbeUnanswered is the answer mcpsh gives go-sdk for a server that
// leaves server/discover unanswered.
var errProbeUnanswered = errors.New("mcpsh: server/discover went unanswered")

// probe times one stdio server's server/discover (see above).
type probe struct {
	// after is how long the probe may go unanswered after the server's
	// first byte, silence how long while it writes nothing.
	after, silence time.Duration
	latest         time.Time     // never fire later: initialize needs time too
	done           chan struct{} // closed when the handshake has ended
	proc           *process
	// cut: mcpsh answered the probe in the server's place; why says after
	// what. late: the server answered it afterwards all the same.
	cut  atomic.Bool
	why  string
	late atomic.Bool
}

// probeKey carries a dial's probe to the stdio transport.
type probeKey struct{}

// timed reports whether p times server/discover; one that does not only
// notes the process, for a dial with a remembered handshake to see how the
// server ended.
func (p *probe) timed() bool { return p.after > 0 || p.silence > 0 }

func newDiscoverProbe(ctx context.Context, o *Options) *probe {
	p := &probe{after: cmp.Or(o.probeAfter, discoverProbe), silence: cmp.Or(o.probeSilence, discoverSilence), done: make(chan struct{})}
	if d, ok := ctx.Deadline(); ok {
		// A quarter of the connect budget stays for initialize.
		p.latest = d.Add(-time.Until(d) / 4)
	}
	return p
}

// watch waits for the server's first byte, then for discoverProbe, and
// answers server/discover in the server's place if it is still unanswered
// by then. It ends with the handshake, or when the server exits.
func (p *probe) watch(proc *process, conn *lineConn, t *tap) {
	// bound is d, or less to fire by latest.
	bound := func(d time.Duration) time.Duration {
		if !p.latest.IsZero() {
			d = min(d, time.Until(p.latest).Round(time.Millisecond))
		}
		return max(d, 0)
	}
	wait := func(d time.Duration) bool {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C:
			return true
		case <-p.done:
		case <-proc.exited:
		}
		return false
	}
	silent := bound(p.silence)
	silence := time.NewTimer(silent)
	select {
	case <-proc.alive:
		silence.Stop()
		after := bound(p.after)
		if !wait(after) {
			return
		}
		p.why = fmt.Sprintf("for %s after the server first wrote", after)
	case <-silence.C:
		p.why = fmt.Sprintf("for %s, while the server wrote nothing", silent)
	case <-p.done:
		silence.Stop()
		return
	case <-proc.exited:
		silence.Stop()
		return
	}
	id := t.pendingID("server/discover")
	if id == "" {
		return // answered
	}
	sub, ok := t.refuseAnswer(id, errProbeUnanswered)
	if !ok {
		return
	}
	msg, err := jsonrpc.DecodeMessage(sub)
	if err != nil {
		return
	}
	p.cut.Store(true)
	conn.inject(msg, id, func() { p.late.Store(true) })
}

// pendingID is the wire ID of a request with this method still unanswered,
// or "".
func (t *tap) pendingID(method string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, p := range t.pending {
		if p.method == method {
			return id
		}
	}
	return ""
}

// dialFirst is the first connection of a session. With ProtocolAuto, a stdio
// server gets the timed probe above, unless the session's memory says how
// its handshake went before (handshakes.go): a server that did not take
// server/discover then is asked with the version it settled on, at once.
// The version a session falls back to is what its restarts ask for. HTTP
// servers answer unknown methods with an error, on which go-sdk falls back
// by itself.
func (s *Session) dialFirst(ctx context.Context) (*connection, error) {
	if !s.auto || s.Target.Kind != KindStdio {
		return s.dial(ctx)
	}
	key := handshakeKey(s.Target)
	// why is what became of a remembered handshake that sent mcpsh back to
	// the probe, said once the server is reached: a server that dies at
	// every start gets its own error, not this.
	why := ""
	if h, ok := s.recall(key); ok {
		c, again, err := s.dialRemembered(ctx, key, h)
		if again == "" {
			return c, err
		}
		why = again
		s.protocol = LatestProtocol
	}
	p := newDiscoverProbe(ctx, &s.opts)
	c, err := s.dial(context.WithValue(ctx, probeKey{}, p))
	close(p.done)
	if err == nil {
		if why != "" {
			s.warn(why)
		}
		// The server's own answer may have won the race with mcpsh's: then
		// go-sdk never fell back, and nothing was cut.
		if p.cut.Load() && c.protocol() < LatestProtocol {
			s.protocol = fallbackProtocol
			s.probeCut(key, p, c)
		}
		return c, nil
	}
	var de *discoverError
	exited := errors.As(err, &de) || p.cut.Load() && p.proc != nil && p.proc.hungUp.Load()
	if !exited || ctx.Err() != nil {
		return nil, err
	}
	s.protocol = fallbackProtocol
	c, err = s.dial(ctx)
	if err != nil {
		return nil, err
	}
	if why != "" {
		s.warn(why)
	}
	// Said only once it is known: a server that dies at every start gets
	// its own error, not this.
	s.warn(fmt.Sprintf("the server ended when asked server/discover (the %s handshake), so it was started again and asked with initialize: it speaks %s",
		LatestProtocol, c.protocol()))
	s.remember(key, &Handshake{Protocol: c.protocol(), Discover: DiscoverExited, Server: serverOf(c)})
	return c, nil
}

// dialRemembered asks the server with the handshake its memory holds. A
// memory that did not get the server through its handshake is forgotten,
// whatever the reason, unless the caller gave up first (its context was
// cancelled, which says nothing of the server); a deadline that passes is
// the server's doing, and its next start probes. When the server refused
// the handshake, or ended before it answered, it has changed, and only a
// new start can ask it the whole way again: again, when not "", says to
// probe at once, and what to tell the user once that worked.
func (s *Session) dialRemembered(ctx context.Context, key string, h Handshake) (c *connection, again string, err error) {
	s.protocol = h.Protocol
	seen := &probe{done: make(chan struct{})} // untimed: it only notes the process
	c, err = s.dial(context.WithValue(ctx, probeKey{}, seen))
	close(seen.done)
	if err == nil {
		s.outgrown(key, h, c)
		return c, "", nil
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, "", err
	}
	s.forget(key)
	var je *jsonrpc.Error
	switch {
	case ctx.Err() != nil:
		return nil, "", err
	case errors.As(err, &je):
		return nil, fmt.Sprintf("the server refused the %s handshake it took before (%s); it was started again to ask for %s first",
			h.Protocol, clipText(safeText(je.Message), 200), LatestProtocol), nil
	case seen.proc != nil && seen.proc.hungUp.Load():
		return nil, fmt.Sprintf("the server ended when asked with the %s handshake it took before; it was started again to ask for %s first",
			h.Protocol, LatestProtocol), nil
	}
	return nil, "", err
}

// probeCut says how a handshake went whose probe mcpsh answered for the
// server, and remembers it unless the server did answer, late.
func (s *Session) probeCut(key string, p *probe, c *connection) {
	if p.late.Load() {
		s.warn(fmt.Sprintf("the server answered server/discover (the %s handshake) only after mcpsh had gone on with initialize on the same connection; it speaks %s this session",
			LatestProtocol, c.protocol()))
		return
	}
	s.warn(fmt.Sprintf("the server left server/discover (the %s handshake) unanswered %s; mcpsh went on with initialize on the same connection, without starting the server again: it speaks %s",
		LatestProtocol, p.why, c.protocol()))
	s.remember(key, &Handshake{Protocol: c.protocol(), Discover: DiscoverUnanswered, Server: serverOf(c)})
}
