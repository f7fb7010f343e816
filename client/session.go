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
}

// Session is one long-lived connection to a server, shared by every call of a run.
type Session struct {
	Target Target
	opts   Options

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
	if s.opts.ProtocolVersion == "" {
		s.opts.ProtocolVersion = DefaultProtocolVersion
	}
	s.stderr = &stderrLog{max: 200, tee: s.opts.ServerStderr, emit: s.emit}
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
			s.emit(Event{Kind: EventLog, Level: string(r.Params.Level), Logger: r.Params.Logger, Text: logText(r.Params.Data)})
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
		return nil, err
	}
	s.conn = c
	return s, nil
}

func (s *Session) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// dial makes a new connection to the target.
func (s *Session) dial(ctx context.Context) (*connection, error) {
	c := &connection{tap: newTap()}
	var transport mcp.Transport
	var stdio *stdioTransport
	switch s.Target.Kind {
	case KindStdio:
		stdio = &stdioTransport{target: s.Target, stderr: s.stderr}
		transport = &tappedTransport{inner: stdio, tap: c.tap}
	case KindHTTP:
		transport = &mcp.StreamableClientTransport{
			Endpoint:   s.Target.URL,
			HTTPClient: &http.Client{Transport: &httpTap{base: http.DefaultTransport, headers: s.Target.Headers, tap: c.tap}},
		}
	case KindSSE:
		transport = &tappedTransport{tap: c.tap, inner: &mcp.SSEClientTransport{
			Endpoint:   s.Target.URL,
			HTTPClient: &http.Client{Transport: &httpTap{base: http.DefaultTransport, headers: s.Target.Headers}},
		}}
	case KindInProcess:
		ct, st := mcp.NewInMemoryTransports()
		if _, err := s.Target.InProcess.Connect(ctx, st, nil); err != nil {
			return nil, fmt.Errorf("starting the in-process server: %w", err)
		}
		transport = &tappedTransport{inner: ct, tap: c.tap}
	}
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

// ConnectError is a failure to start or reach a server.
type ConnectError struct {
	Target Target
	Err    error
	Detail string // how a stdio server ended and what it last said, if known
}

func (e *ConnectError) Error() string {
	msg := fmt.Sprintf("connecting to %s (%s): %v", e.Target.Label(), e.Target.Via(), e.Err)
	if errors.Is(e.Err, context.DeadlineExceeded) {
		msg += " (the server did not finish the handshake in time)"
	}
	if e.Detail != "" {
		msg += "\n" + e.Detail
	}
	return msg
}

func (e *ConnectError) Unwrap() error { return e.Err }

// deathNotice says how a stdio server ended and what it last wrote to stderr.
func (s *Session) deathNotice(p *process) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	if st := p.exitStatus(); st != "" {
		fmt.Fprintf(&b, "the server %s", st)
	}
	if tail := s.stderr.Tail(5); len(tail) > 0 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString("its last stderr lines:\n  " + strings.Join(tail, "\n  "))
	}
	return b.String()
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
	if c == nil {
		return nil
	}
	c.close()
	return nil
}
