// Package proxy serves MCP to an agent's host (Claude Code, Cursor, a go-sdk
// client...) in front of one upstream server, and passes every request on
// through mcpsh's client: each tools/call goes through policy's decision on
// what the server declares now, an approval when one is needed (a console,
// then the host's user), retries of what is safe to retry, and the session
// log. Everything else (listings, prompts, resources, completions,
// notifications, the server's own requests) goes through as it came.
//
// The host side is go-sdk's mcp.Server with a receiving middleware that
// answers every proxied method itself (serve.go): results pass on as the
// server's raw bytes (raw.go). Each host session gets its own upstream
// client.Session, connected during the host's handshake so that the
// upstream sees the host's capabilities and the host the upstream's
// (host.go).
package proxy

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultApprovalTimeout is how long a call waits for someone to approve it.
const DefaultApprovalTimeout = 2 * time.Minute

// maxLine bounds one message from the host: mcpsh's answer cap and a margin.
const maxLine = 32<<20 + 64<<10

// Options configure a Proxy.
type Options struct {
	// Target is the upstream server.
	Target client.Target
	// Client are the options of each upstream session (the session log's
	// recorder, BeforeSend, the trace, handshakes, the protocol version);
	// the proxy adds what comes from the host (its name, and the
	// elicitation, sampling and roots it declared).
	Client client.Options
	// Call holds the limits and standing orders of every call
	// (OnlyReadOnly, Timeout, MaxDuration, Attempts, RetryMax); its Tool,
	// Args and the rest are the host's.
	Call client.Call
	// ApprovalTimeout bounds the wait for someone to approve a call; zero
	// takes DefaultApprovalTimeout.
	ApprovalTimeout time.Duration
	// ConnectTimeout bounds starting or reaching the upstream server.
	ConnectTimeout time.Duration
	// Console, when set, is asked first about calls that need a person (a
	// console watching the agent's calls, issue 21); nil: the host's user.
	Console Asker
	// RuleRef names the upstream in a top-level rule's server: term of
	// mcpsh's config when it has no entry there (a host's server,
	// cursor:github, or one named on the command line), so a refusal
	// suggests a rule that serves it; "" when it has an entry (whose own
	// "policy" is the place), or no name.
	RuleRef string
	// Version is mcpsh's version, for the upstream's clientInfo.
	Version string
	// Warn hears the proxy's own diagnostics, made safe for a terminal.
	// They go to stderr: stdout carries nothing but JSON-RPC.
	Warn func(string)
}

// Proxy serves hosts in front of one upstream server.
type Proxy struct {
	opts Options
	// key seals the state of a question put to a 2026-07-28 host inside a
	// result (mrtr.go); random per process.
	key [32]byte

	mu    sync.Mutex
	hosts map[*mcp.ServerSession]*host
	// posts are the POSTs being served over HTTP (listen.go); nil on stdio.
	posts *postTable
}

// New makes a Proxy.
func New(o Options) *Proxy {
	if o.ApprovalTimeout <= 0 {
		o.ApprovalTimeout = DefaultApprovalTimeout
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 30 * time.Second
	}
	p := &Proxy{opts: o, hosts: map[*mcp.ServerSession]*host{}}
	_, _ = rand.Read(p.key[:])
	return p
}

// Serve serves one host over newline-delimited JSON-RPC on in and out
// (stdio) until the host closes in, or ctx ends. It returns once the
// host's calls in flight are recorded and the upstream server has ended.
func (p *Proxy) Serve(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	srv := p.newServer(nil)
	ss, err := srv.Connect(ctx, &mcp.IOTransport{Reader: in, Writer: out, MaxLineLength: maxLine}, nil)
	if err != nil {
		return err
	}
	h := p.hostFor(srv, ss)
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		// go-sdk's Close waits for the requests being handled: the host's
		// calls in flight are cancelled first (upstream too, with
		// notifications/cancelled), or a call on a server that never
		// answers would hold the proxy up until its timeout.
		h.stop()
		ss.Close()
		err = <-done
	}
	h.close()
	p.forget(ss)
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || ctx.Err() != nil {
		return nil
	}
	return err
}

// newServer is the host side of one host session: go-sdk's server, with
// every method mcpsh passes on answered by the middleware. Its
// capabilities are the most a proxy passes on, so that go-sdk accepts
// every subscription a host makes (subscriptions/listen checks them); what
// the host is told is the upstream's own (serve.go patches the handshake).
// getID, when set, names the session it serves over HTTP (listen.go).
func (p *Proxy) newServer(getID func() string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcpsh-proxy", Version: p.opts.Version}, &mcp.ServerOptions{
		GetSessionID: getID,
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{ListChanged: true},
			Prompts:   &mcp.PromptCapabilities{ListChanged: true},
			Resources: &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
			//lint:ignore SA1019 SEP-2577 deprecates logging; servers use it through the deprecation window, and a proxy passes it on
			Logging:     &mcp.LoggingCapabilities{},
			Completions: &mcp.CompletionCapabilities{},
		},
		SubscribeHandler:   p.subscribe,
		UnsubscribeHandler: p.unsubscribe,
		//lint:ignore SA1019 SEP-2577 deprecates roots; servers use them through the deprecation window, and a proxy passes them on
		RootsListChangedHandler: p.rootsChanged,
		InitializedHandler:      p.initialized,
		Logger:                  slog.New(slog.DiscardHandler),
	})
	srv.AddReceivingMiddleware(p.middleware(srv))
	return srv
}

// hostFor is the host of a session of srv, made on its first request.
func (p *Proxy) hostFor(srv *mcp.Server, ss *mcp.ServerSession) *host {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.hosts[ss]
	if h == nil {
		h = newHost(p, srv, ss)
		p.hosts[ss] = h
	}
	return h
}

// hostOf is the host of a session that has made a request, or nil.
func (p *Proxy) hostOf(ss *mcp.ServerSession) *host {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hosts[ss]
}

// hostOfServer is the host whose session srv serves, or nil.
func (p *Proxy) hostOfServer(srv *mcp.Server) *host {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.hosts {
		if h.srv == srv {
			return h
		}
	}
	return nil
}

// allHosts are the hosts served now.
func (p *Proxy) allHosts() []*host {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*host, 0, len(p.hosts))
	for _, h := range p.hosts {
		out = append(out, h)
	}
	return out
}

// forget drops an ended host session.
func (p *Proxy) forget(ss *mcp.ServerSession) {
	p.mu.Lock()
	delete(p.hosts, ss)
	p.mu.Unlock()
}

// warn reports the proxy's own diagnostics, made safe, on stderr.
func (p *Proxy) warn(msg string) {
	if p.opts.Warn != nil {
		p.opts.Warn(termtext.Line(p.opts.Target.Redact(msg)))
	}
}
