package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// InProcessServer is a go-sdk server run inside mcpsh: the demo, and tests.
type InProcessServer = *mcp.Server

// Options tune a Session; the zero value is usable.
type Options struct {
	// ProtocolVersion to request: one of ProtocolVersions, or ProtocolAuto
	// (also when empty).
	ProtocolVersion string
	// ServerStderr also receives the stdio server's stderr, made safe.
	ServerStderr io.Writer
	// Name, Title and Version say who is calling, sent to the server as
	// clientInfo: the program, or a proxy naming the host it calls for.
	// Name defaults to "mcpsh", Version to "dev".
	Name, Title, Version string
	// Recorder receives every call's outcome before Do returns (the session log).
	Recorder func(*Outcome) error
	// BeforeSend runs right before each attempt of a call is sent, once policy
	// said run, with the outcome so far (class, open-world). The session log
	// syncs to disk there before a destructive or open-world call goes out.
	BeforeSend func(*Outcome)
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Auth configures OAuth for HTTP servers (client/oauth.go); nil for none.
	Auth *Auth

	// What mcpsh offers servers (client/requests.go). Each capability is
	// declared only when set: Roots, Elicit (a person, or a batch
	// policy, answers form-mode elicitation; ElicitURL adds URL mode), and
	// Sample (a person writes the reply to a sampling request).
	Roots []Root
	// OfferRoots declares roots even when Roots is empty, for a caller
	// that sets them later (SetRoots: a proxy passes its host's on).
	OfferRoots bool
	Elicit     func(context.Context, *ElicitRequest) (*ElicitResponse, error)
	ElicitURL  bool
	Sample     func(context.Context, *SampleRequest) (*SampleResponse, error)
	// Trace hears every JSON-RPC message in and out (the traffic pane,
	// a trace file). It runs on the transport's goroutines and must not block.
	Trace func(TraceEntry)
	// OnEvent hears every event as it happens, before it is queued on Events;
	// it runs on the SDK's goroutines and must not block. Batch mode prints
	// the server's log messages and follows resources with it.
	OnEvent func(Event)
	// LogLevel, when set, asks a server that offers logging for messages at
	// that level and above right after connecting (SetLogLevel).
	LogLevel string
	// OnWarning hears mcpsh's warnings about the server as they happen (lines
	// on stdout that are not JSON-RPC, say), already made safe for a terminal.
	// It runs on the reading goroutine and must not block. The warnings are
	// also delivered as EventWarning.
	OnWarning func(string)
	// Handshakes remembers how each stdio server's handshake went when it
	// took a fallback, so its next start asks for what it speaks at once
	// (handshakes.go); nil remembers nothing.
	Handshakes HandshakeMemory
	// Hurry, once closed, cuts short the grace a stdio server gets to exit
	// when the session closes: the user wants out now (a second Ctrl-C).
	Hurry <-chan struct{}
	// ListOnly is for a session that lists and closes: it does not ask to
	// hear the server's list changes (at 2026-07-28 it opens no
	// subscriptions/listen stream, which a one-shot listing would only open
	// and cancel), so Do refuses to call on it: a call is decided on what the
	// server declares now, and such a session would not hear that it changed.
	ListOnly bool

	// What tests change, per session so that they may run in parallel:
	// the bounds of the 2026-07-28 probe (protocol.go; zero for
	// discoverProbe and discoverSilence) and the transport under the HTTP
	// tap (nil for http.DefaultTransport).
	probeAfter, probeSilence time.Duration
	httpBase                 http.RoundTripper
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
	// followed holds the 2025-11-25 tasks being followed, whose server's
	// requests pause their timeout while answered (taskstill.go).
	followed sync.Map // *stillness → task ID

	listMu sync.Mutex
	tools  *toolSet
	limits *listLimits // each listing's budget; nil: defaultListLimits (tests lower it)
	// changes counts notifications/tools/list_changed; listed is its value when
	// the last listing started. They differ while the listing is stale.
	changes atomic.Int64
	listed  atomic.Int64

	// logLevel is the level asked for at 2026-07-28, sent in every
	// request's _meta (requestmeta.go); nil: none.
	logLevel atomic.Pointer[string]

	// roots are the roots offered now (Options.Roots, then SetRoots).
	rootsMu sync.Mutex
	roots   []Root

	reconnectMu sync.Mutex
	restarts    int

	// protocol is the version each dial asks for; auto: it may fall back.
	protocol string
	auto     bool

	// shownOnce fills label and via, how every outcome names the server.
	shownOnce  sync.Once
	label, via string
}

// connection is one established MCP session; a reconnect replaces it whole.
type connection struct {
	cs     *mcp.ClientSession
	tap    *tap
	proc   *process
	closed chan struct{} // closed when the session has ended, for any reason
	// closing: mcpsh ends the connection itself (Close, a reconnect), so
	// its end is not the server's doing.
	closing atomic.Bool
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

// protocol is the version the connection's handshake settled on.
func (c *connection) protocol() string {
	if c == nil || c.cs == nil {
		return ""
	}
	if r := c.cs.InitializeResult(); r != nil {
		return r.ProtocolVersion
	}
	return ""
}

func (c *connection) close() {
	c.closing.Store(true)
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
	if opts != nil {
		// Before anything quotes the server: its tokens must be redacted
		// from the first message on.
		t.live = opts.Auth.liveSecrets(t, opts.Version)
	}
	s := &Session{Target: t, events: make(chan Event, 1024), tools: &toolSet{}}
	if opts != nil {
		s.opts = *opts
	}
	s.life, s.stop = context.WithCancel(context.WithoutCancel(ctx))
	if err := ValidateProtocol(s.opts.ProtocolVersion); err != nil {
		return nil, err
	}
	s.protocol, s.auto = s.opts.ProtocolVersion, s.opts.ProtocolVersion == "" || s.opts.ProtocolVersion == ProtocolAuto
	if s.auto {
		s.protocol = LatestProtocol
	}
	s.stderr = &stderrLog{max: 200, tee: s.opts.ServerStderr, emit: s.emit, redact: t.Redact}
	info := &mcp.Implementation{Name: s.opts.Name, Title: s.opts.Title, Version: s.opts.Version}
	if info.Name == "" {
		info.Name = "mcpsh"
	}
	if info.Version == "" {
		info.Version = "dev"
	}
	s.roots = slices.Clone(s.opts.Roots)
	s.client = mcp.NewClient(info, s.clientOptions(t))
	s.client.AddSendingMiddleware(s.requestMeta)
	if err := registerTaskMethods(s.client); err != nil {
		s.stop()
		return nil, err
	}
	for _, r := range s.opts.Roots {
		//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
		s.client.AddRoots(&mcp.Root{URI: r.URI, Name: r.Name})
	}
	c, err := s.dialFirst(ctx)
	if err != nil {
		s.stop()
		return nil, err
	}
	s.mu.Lock() // the connection's watcher (dial) reads it
	s.conn = c
	s.mu.Unlock()
	if s.opts.LogLevel != "" && s.Server().Capabilities.Logging {
		if err := s.SetLogLevel(ctx, s.opts.LogLevel); err != nil {
			s.warn("asking for the server's log messages: " + termtext.Line(err.Error()))
		}
	}
	return s, nil
}

// clientOptions declares what mcpsh implements and routes what the server
// sends on its own. Capabilities are set explicitly: a nil Capabilities
// advertises roots, and server-filesystem would then replace its
// directories with ours. The handlers run on SDK goroutines and must not
// block, except those answering the server's requests, which wait for their
// answer.
func (s *Session) clientOptions(t Target) *mcp.ClientOptions {
	o := &mcp.ClientOptions{
		Capabilities: s.capabilities(),
		// mcpsh runs the rounds of an input-required result itself (rounds.go).
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			s.emit(Event{Kind: EventResourceUpdated, Text: r.Params.URI})
		},
		//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			data, _ := json.Marshal(r.Params.Data)
			data, _ = s.Target.RedactJSON(data)
			s.emit(Event{Kind: EventLog, Level: string(r.Params.Level), Logger: r.Params.Logger, Text: t.Redact(logText(r.Params.Data)), Data: data})
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			tok, _ := r.Params.ProgressToken.(string)
			if fn, ok := s.progress.Load(tok); ok {
				fn.(func(Progress))(Progress{Progress: r.Params.Progress, Total: r.Params.Total, Message: t.Redact(r.Params.Message)})
			}
		},
	}
	if !s.opts.ListOnly {
		// With a handler set, go-sdk subscribes to the change at 2026-07-28.
		o.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {
			s.emit(Event{Kind: EventToolsChanged})
		}
		o.ResourceListChangedHandler = func(context.Context, *mcp.ResourceListChangedRequest) {
			s.emit(Event{Kind: EventResourcesChanged})
		}
		o.PromptListChangedHandler = func(context.Context, *mcp.PromptListChangedRequest) {
			s.emit(Event{Kind: EventPromptsChanged})
		}
	}
	if s.opts.Elicit != nil {
		o.ElicitationHandler = s.elicitHandler
		o.ElicitationCompleteHandler = func(_ context.Context, r *mcp.ElicitationCompleteNotificationRequest) {
			s.emit(Event{Kind: EventRequest, Text: "the server says the input it asked for in the browser is complete (" + r.Params.ElicitationID + ")"})
		}
	}
	if s.opts.Sample != nil {
		//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
		o.CreateMessageHandler = s.sampleHandler
	}
	return o
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
	if s.opts.Trace != nil {
		c.tap.trace = newTracer(s.Target, s.opts.Trace)
	}
	c.tap.asked = s.asked
	var transport mcp.Transport
	var stdio *stdioTransport
	var legacy *httpTap
	switch s.Target.Kind {
	case KindStdio:
		stdio = &stdioTransport{target: s.Target, stderr: s.stderr, tap: c.tap, warn: s.warn, hurry: s.opts.Hurry}
		stdio.probe, _ = ctx.Value(probeKey{}).(*probe)
		transport = &tappedTransport{inner: stdio, tap: c.tap}
	case KindHTTP:
		st := &mcp.StreamableClientTransport{
			Endpoint:     s.Target.URL,
			HTTPClient:   &http.Client{Transport: newHTTPTap(s.Target.URL, s.Target.Headers, c.tap, s.opts.httpBase)},
			MaxEventSize: maxEventBytes,
		}
		if h := s.oauthHandler(); h != nil {
			st.OAuthHandler = h
		}
		transport = st
	case KindSSE:
		legacy = newHTTPTap(s.Target.URL, s.Target.Headers, nil, s.opts.httpBase)
		legacy.legacySSE = true
		transport = &tappedTransport{tap: c.tap, inner: &mcp.SSEClientTransport{
			Endpoint:     s.Target.URL,
			HTTPClient:   &http.Client{Transport: legacy},
			MaxEventSize: maxEventBytes,
		}}
	case KindInProcess:
		ct, st := mcp.NewInMemoryTransports()
		if _, err := s.Target.InProcess.Connect(s.life, st, nil); err != nil {
			return nil, fmt.Errorf("starting the in-process server: %w", err)
		}
		transport = &tappedTransport{inner: ct, tap: c.tap}
	}
	transport = &lifeTransport{inner: transport, life: s.life}
	cs, err := s.client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: s.protocol})
	if err != nil && c.tap.unanswered("server/discover") {
		err = &discoverError{err}
	}
	if stdio != nil {
		c.proc = stdio.proc
	}
	if err != nil && legacy != nil && legacy.refusedEndpoint() != nil {
		// Said alone: go-sdk flattens it into its own words around the URL.
		err = legacy.refusedEndpoint()
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
		if c.closing.Load() {
			return
		}
		how := s.endedBy(c)
		// Said only of the connection in use, and before a reconnect
		// that replaces it says it is back.
		s.reconnectMu.Lock()
		defer s.reconnectMu.Unlock()
		if s.current() == c && !c.closing.Load() {
			s.emit(Event{Kind: EventEnded, Text: how})
		}
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

// endedBy says in a line how a connection that ended on its own ended.
func (s *Session) endedBy(c *connection) string {
	if c.proc != nil {
		c.proc.waitExit(200 * time.Millisecond)
		if st := c.proc.exitStatus(); st != "" {
			return "the server " + st
		}
	}
	return "the connection ended"
}

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
