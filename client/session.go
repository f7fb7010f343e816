package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultProtocolVersion is pinned so Connect skips the 2026-07-28
// server/discover probe, which makes some stdio servers exit or hang (go-sdk
// issue #1177). The reference servers negotiate this version.
const DefaultProtocolVersion = "2025-11-25"

// InProcessServer is a go-sdk server run inside mcpsh: the demo, and tests.
type InProcessServer = *mcp.Server

// Options tune a Session; the zero value is usable.
type Options struct {
	// ProtocolVersion to request; DefaultProtocolVersion when empty.
	ProtocolVersion string
	// ServerStderr also receives the stdio server's stderr (--server-stderr).
	ServerStderr io.Writer
	// Version is mcpsh's version, sent as clientInfo.
	Version string
	// Recorder receives every call's outcome before Do returns (the session log).
	Recorder func(*Outcome) error
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Auth configures OAuth for HTTP servers (client/oauth.go); nil for none.
	Auth *Auth
	// OnWarning hears mcpsh's warnings about the server as they happen (lines
	// on stdout that are not JSON-RPC, say), already made safe for a terminal.
	// It runs on the reading goroutine and must not block. The warnings are
	// also delivered as EventWarning.
	OnWarning func(string)
}

// Session is one long-lived connection to a server, shared by every call of a run.
type Session struct {
	Target Target
	opts   Options

	// life bounds the session's own streams (an SSE GET, say), which must
	// outlive the context of the Connect call that opened them.
	life context.Context
	stop context.CancelFunc

	client *mcp.Client
	mu     sync.Mutex
	conn   *connection

	stderr  *stderrLog
	events  chan Event
	dropped atomic.Int64
	seq     atomic.Int64
	// progress routes progress notifications to the call that asked for them.
	progress sync.Map // token → func(Progress)

	listMu sync.Mutex
	tools  *toolSet
	// changes counts notifications/tools/list_changed; listed is its value when
	// the last listing started. They differ while the listing is stale.
	changes atomic.Int64
	listed  atomic.Int64

	reconnectMu sync.Mutex
	restarts    int
}

// connection is one established MCP session; a reconnect replaces it whole.
type connection struct {
	cs     *mcp.ClientSession
	tap    *tap
	proc   *process
	closed chan struct{} // closed when the session has ended, for any reason
}

// gone reports whether the session has ended (the server exited, the HTTP
// session vanished, or mcpsh closed it).
func (c *connection) gone() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

func (c *connection) close() {
	c.cs.Close()
	if c.proc != nil {
		c.proc.Close()
	}
}

// Connect starts or reaches the server and completes the MCP handshake.
func Connect(ctx context.Context, t Target, opts *Options) (*Session, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	s := &Session{Target: t, events: make(chan Event, 1024), tools: &toolSet{}}
	if opts != nil {
		s.opts = *opts
	}
	s.life, s.stop = context.WithCancel(context.WithoutCancel(ctx))
	if s.opts.ProtocolVersion == "" {
		s.opts.ProtocolVersion = DefaultProtocolVersion
	}
	s.stderr = &stderrLog{max: 200, tee: s.opts.ServerStderr, emit: s.emit, redact: t.Redact}
	version := s.opts.Version
	if version == "" {
		version = "dev"
	}
	s.client = mcp.NewClient(&mcp.Implementation{Name: "mcpsh", Version: version}, &mcp.ClientOptions{
		// Declare only what mcpsh implements. A nil Capabilities advertises roots,
		// and server-filesystem would then replace its directories with ours.
		Capabilities: &mcp.ClientCapabilities{},
		// These run on SDK goroutines and must not block.
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			s.emit(Event{Kind: EventToolsChanged})
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			s.emit(Event{Kind: EventLog, Level: string(r.Params.Level), Logger: r.Params.Logger, Text: t.Redact(logText(r.Params.Data))})
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			tok, _ := r.Params.ProgressToken.(string)
			if fn, ok := s.progress.Load(tok); ok {
				fn.(func(Progress))(Progress{Progress: r.Params.Progress, Total: r.Params.Total, Message: r.Params.Message})
			}
		},
	})
	c, err := s.dial(ctx)
	if err != nil {
		s.stop()
		return nil, err
	}
	s.conn = c
	return s, nil
}

// warn reports a problem with the server that mcpsh worked around.
func (s *Session) warn(msg string) {
	msg = s.Target.Redact(msg)
	s.emit(Event{Kind: EventWarning, Level: "warning", Logger: "mcpsh", Text: msg})
	if s.opts.OnWarning != nil {
		s.opts.OnWarning(msg)
	}
}

func (s *Session) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// dial makes a new connection to the target. ctx bounds the handshake only:
// the connection's streams live until the session closes.
func (s *Session) dial(ctx context.Context) (*connection, error) {
	c := &connection{tap: newTap()}
	c.tap.listChanged = func() { s.changes.Add(1) }
	var transport mcp.Transport
	var stdio *stdioTransport
	switch s.Target.Kind {
	case KindStdio:
		stdio = &stdioTransport{target: s.Target, stderr: s.stderr, tap: c.tap, warn: s.warn}
		transport = &tappedTransport{inner: stdio, tap: c.tap}
	case KindHTTP:
		st := &mcp.StreamableClientTransport{
			Endpoint:   s.Target.URL,
			HTTPClient: &http.Client{Transport: newHTTPTap(s.Target.URL, s.Target.Headers, c.tap)},
		}
		if h := s.oauthHandler(); h != nil {
			st.OAuthHandler = h
		}
		transport = st
	case KindSSE:
		transport = &tappedTransport{tap: c.tap, inner: &mcp.SSEClientTransport{
			Endpoint:   s.Target.URL,
			HTTPClient: &http.Client{Transport: newHTTPTap(s.Target.URL, s.Target.Headers, nil)},
		}}
	case KindInProcess:
		ct, st := mcp.NewInMemoryTransports()
		if _, err := s.Target.InProcess.Connect(s.life, st, nil); err != nil {
			return nil, fmt.Errorf("starting the in-process server: %w", err)
		}
		transport = &tappedTransport{inner: ct, tap: c.tap}
	}
	transport = &lifeTransport{inner: transport, life: s.life}
	cs, err := s.client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: s.opts.ProtocolVersion})
	if stdio != nil {
		c.proc = stdio.proc
	}
	if err != nil {
		detail := ""
		if c.proc != nil {
			// Let a server that is dying on its own finish, so the notice shows
			// its exit status and last words rather than our SIGTERM.
			c.proc.waitExit(200 * time.Millisecond)
			detail = s.deathNotice(c.proc)
			c.proc.Close()
		}
		return nil, &ConnectError{Target: s.Target, Err: err, Detail: detail}
	}
	c.cs = cs
	c.closed = make(chan struct{})
	go func() {
		cs.Wait()
		close(c.closed)
	}()
	return c, nil
}

// lifeTransport opens its connection with the session's context instead of
// the caller's: go-sdk's legacy SSE transport binds its GET stream to the
// context Connect gets, and a connect timeout cancelled when connecting
// returns would kill the stream, so calls would then fail at random with EOF.
type lifeTransport struct {
	inner mcp.Transport
	life  context.Context
}

func (t *lifeTransport) Connect(context.Context) (mcp.Connection, error) {
	return t.inner.Connect(t.life)
}

// ConnectError is a failure to start or reach a server.
type ConnectError struct {
	Target Target
	Err    error
	Detail string // how a stdio server ended and what it last said, if known
}

func (e *ConnectError) Error() string {
	// The error may carry the server's own words (an initialize error, an
	// HTTP body): they are made safe before mcpsh's words are put around them.
	msg := fmt.Sprintf("connecting to %s (%s): %s", termtext.Line(e.Target.Label()), termtext.Line(e.Target.Via()), termtext.Line(e.Err.Error()))
	if errors.Is(e.Err, context.DeadlineExceeded) {
		msg += " (the server did not finish the handshake in time)"
	}
	if e.Detail != "" {
		msg += "\n" + e.Detail
	}
	return e.Target.Redact(msg)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// deathNotice says how a stdio server ended and what it last wrote to stderr.
func (s *Session) deathNotice(p *process) string {
	if p == nil {
		return ""
	}
	var parts []string
	if st := p.exitStatus(); st != "" {
		parts = append(parts, "the server "+st)
	}
	if err := p.stdout.brokenBy(); err != nil {
		parts = append(parts, err.Error())
	}
	if tail := s.stderr.Tail(5); len(tail) > 0 {
		for i, l := range tail {
			tail[i] = termtext.Truncate(termtext.Line(l), 300)
		}
		parts = append(parts, "its last stderr lines:\n  "+strings.Join(tail, "\n  "))
	}
	return strings.Join(parts, "; ")
}

func (s *Session) current() *connection {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

// ServerInfo describes the server as it introduced itself.
type ServerInfo struct {
	Name, Version, Protocol, Instructions string
	Logging                               bool // the server can send log messages
	ToolsListChanged                      bool
}

// Server returns what the server said about itself at the handshake.
func (s *Session) Server() ServerInfo {
	res := s.current().cs.InitializeResult()
	if res == nil {
		return ServerInfo{}
	}
	info := ServerInfo{Protocol: res.ProtocolVersion, Instructions: res.Instructions}
	if res.ServerInfo != nil {
		info.Name, info.Version = res.ServerInfo.Name, res.ServerInfo.Version
	}
	if caps := res.Capabilities; caps != nil {
		info.Logging = caps.Logging != nil
		info.ToolsListChanged = caps.Tools != nil && caps.Tools.ListChanged
	}
	return info
}

// SetLogLevel asks the server to send log messages at level and above. go-sdk
// servers send none until a client asks.
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	return s.current().cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)})
}

// StderrTail returns the last n lines the stdio server wrote to stderr.
func (s *Session) StderrTail(n int) []string { return s.stderr.Tail(n) }

// Close ends the session and, for stdio, the server's whole process group.
func (s *Session) Close() error {
	c := s.current()
	if c != nil {
		c.close()
	}
	s.stop()
	return nil
}
