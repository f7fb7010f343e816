package proxy

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Serving hosts over streamable HTTP (go-sdk's handler) on a socket of
// this machine. Loopback is not private: any local user, and any web page
// the user opens (DNS rebinding, cross-origin POSTs), can reach it, and
// through it the upstream server with this user's credentials. So before
// go-sdk sees a request it must name this proxy exactly in its Host (go-sdk
// alone accepts any loopback name on any port), come from no other web
// origin, and carry the token only this user can read. Each host session
// gets its own go-sdk server and its own upstream session: a go-sdk server
// announces list changes and resource updates to every session it has, so
// a shared one would tell one host what another's server said.

const (
	// DefaultMaxSessions bounds the host sessions served at once: each
	// holds an upstream server (a process, for a stdio one).
	DefaultMaxSessions = 16
	// DefaultSessionTimeout ends a host session idle this long, and its
	// upstream with it.
	DefaultSessionTimeout = 30 * time.Minute
	// maxBody bounds one request's body: mcpsh's answer cap.
	maxBody = 32 << 20
	// postHeader carries the number the proxy gives each POST, overwriting
	// any the host sent: go-sdk hands a handler the headers of the POST
	// its request came in (RequestExtra.Header), but not that POST's
	// context, which is how a host that gives up on a call says so.
	postHeader = "Mcpsh-Post"
	// sessionHeader is streamable HTTP's session header.
	sessionHeader = "Mcp-Session-Id"
)

// ListenOptions configure serving hosts over streamable HTTP.
type ListenOptions struct {
	// Addr is the address to bind, as BindAddr returned it.
	Addr string
	// AllowHosts are Host headers accepted besides this proxy's loopback
	// names; one without a port means that name on the bound port.
	AllowHosts []string
	// AllowOrigins are web origins (scheme://host:port) accepted besides
	// this proxy's own.
	AllowOrigins []string
	// NoToken serves without a bearer token.
	NoToken bool
	// TokenDir is the folder the token file goes in (PORT.token).
	TokenDir string
	// MaxSessions and SessionTimeout: zero takes the defaults.
	MaxSessions    int
	SessionTimeout time.Duration
}

// ErrNotLoopback is BindAddr's answer for an address beyond this machine.
var ErrNotLoopback = errors.New("not a loopback address")

// BindAddr is the address to bind for addr (HOST:PORT): a loopback IP, or
// localhost resolved to one, unless remote. PORT 0 picks a free port.
func BindAddr(addr string, remote bool) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%q is not HOST:PORT", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("%q: the port is not a number from 0 to 65535", addr)
	}
	if remote {
		return addr, nil
	}
	switch {
	case host == "":
		return "", fmt.Errorf("%q listens on every interface: %w", addr, ErrNotLoopback)
	case strings.EqualFold(host, "localhost"):
		ips, err := net.DefaultResolver.LookupIPAddr(context.Background(), "localhost")
		if err != nil || len(ips) == 0 {
			return net.JoinHostPort("127.0.0.1", port), nil
		}
		for _, ip := range ips {
			if !ip.IP.IsLoopback() {
				return "", fmt.Errorf("%q: localhost resolves to %s: %w", addr, ip.IP, ErrNotLoopback)
			}
		}
		// 127.0.0.1 when localhost has it: the name hosts are most
		// likely given.
		for _, ip := range ips {
			if ip.IP.To4() != nil {
				return net.JoinHostPort(ip.IP.String(), port), nil
			}
		}
		return net.JoinHostPort(ips[0].IP.String(), port), nil
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	if ip == nil {
		return "", fmt.Errorf("%q names no IP address (only localhost is looked up): %w", addr, ErrNotLoopback)
	}
	if !ip.IsLoopback() {
		return "", fmt.Errorf("%q: %w", addr, ErrNotLoopback)
	}
	return net.JoinHostPort(ip.String(), port), nil
}

// Listener serves hosts over streamable HTTP on a bound socket.
type Listener struct {
	p       *Proxy
	o       ListenOptions
	ln      net.Listener
	port    string
	hosts   map[string]bool // Host headers accepted, lower case
	origins map[string]bool // Origins accepted, lower case
	token   []byte          // nil: none required
	file    string          // the token's file
	handler http.Handler

	mu      sync.Mutex
	slots   map[string]*slot // host sessions, by session ID
	closing bool
	// ended waits for each session's cleanup (its upstream ended).
	ended sync.WaitGroup
}

// slot is a host session: reserved by the POST that starts it, with the
// go-sdk server made for it alone.
type slot struct {
	id  string
	srv *mcp.Server
}

type slotKey struct{}

// Listen binds o.Addr and, unless o.NoToken, writes a new token to
// TokenDir/PORT.token, readable by this user only.
func (p *Proxy) Listen(o ListenOptions) (*Listener, error) {
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, err
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	l := &Listener{p: p, o: o, ln: ln, port: port, slots: map[string]*slot{},
		hosts: map[string]bool{}, origins: map[string]bool{}}
	for _, h := range []string{"127.0.0.1", "[::1]", "localhost"} {
		l.hosts[h+":"+port] = true
		l.origins["http://"+h+":"+port] = true
	}
	for _, h := range o.AllowHosts {
		if _, _, err := net.SplitHostPort(h); err != nil {
			h = net.JoinHostPort(strings.Trim(h, "[]"), port)
		}
		l.hosts[strings.ToLower(h)] = true
	}
	for _, o := range o.AllowOrigins {
		l.origins[strings.ToLower(strings.TrimSuffix(o, "/"))] = true
	}
	if !o.NoToken {
		if err := l.writeToken(); err != nil {
			ln.Close()
			return nil, err
		}
	}
	p.posts = &postTable{ctxs: map[uint64]context.Context{}}
	sdk := mcp.NewStreamableHTTPHandler(l.getServer, &mcp.StreamableHTTPOptions{
		SessionTimeout:      o.SessionTimeout,
		MaxRequestBodyBytes: maxBody,
		// go-sdk's own Host check (loopback names, any port) would refuse
		// a name the user allowed; mcpsh's is stricter and runs first.
		DisableLocalhostProtection: len(o.AllowHosts) > 0,
	})
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := w.(*challenge); ok {
			w = c.ResponseWriter
		}
		l.serveSDK(sdk, w, r)
	})
	l.handler = inner
	if l.token != nil {
		l.handler = auth.RequireBearerToken(l.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(inner)
	}
	return l, nil
}

// URL is where hosts connect.
func (l *Listener) URL() string {
	host, _, _ := net.SplitHostPort(l.ln.Addr().String())
	return "http://" + net.JoinHostPort(host, l.port) + "/mcp"
}

// TokenFile is the token's file, or "" when none is required.
func (l *Listener) TokenFile() string { return l.file }

// writeToken makes a new random token and writes it where only this user
// can read it. A file left by a proxy that did not end cleanly on the same
// port is replaced (the port is this proxy's now); a link there is removed,
// not followed.
func (l *Listener) writeToken() error {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	l.token = []byte(hex.EncodeToString(b[:]))
	if err := os.MkdirAll(l.o.TokenDir, 0o700); err != nil {
		return fmt.Errorf("the token's folder: %w", err)
	}
	if err := os.Chmod(l.o.TokenDir, 0o700); err != nil {
		return fmt.Errorf("the token's folder: %w", err)
	}
	l.file = filepath.Join(l.o.TokenDir, l.port+".token")
	if err := os.Remove(l.file); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("the token file: %w", err)
	}
	f, err := os.OpenFile(l.file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("the token file: %w", err)
	}
	_, err = f.Write(l.token)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(l.file)
		return fmt.Errorf("the token file %s: %w", l.file, err)
	}
	return nil
}

// verify compares the host's token with this proxy's in constant time.
// Every session is this one token's; go-sdk binds each session to it.
func (l *Listener) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if subtle.ConstantTimeCompare([]byte(token), l.token) != 1 {
		return nil, fmt.Errorf("%w: not this proxy's token", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: "mcpsh-proxy"}, nil
}

// ServeHTTP checks what go-sdk does not (the exact Host, the origin, the
// token), then hands the request to go-sdk.
func (l *Listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !l.hosts[strings.ToLower(r.Host)] {
		http.Error(w, fmt.Sprintf("mcpsh proxy: Host %q is not this proxy's (127.0.0.1:%s, [::1]:%s or localhost:%s)", r.Host, l.port, l.port, l.port), http.StatusForbidden)
		return
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		http.Error(w, "mcpsh proxy: cross-site requests are refused", http.StatusForbidden)
		return
	}
	for _, o := range r.Header.Values("Origin") {
		if !l.origins[strings.ToLower(o)] {
			http.Error(w, fmt.Sprintf("mcpsh proxy: requests from origin %q are refused", o), http.StatusForbidden)
			return
		}
	}
	if l.token != nil {
		w = &challenge{w}
	}
	l.handler.ServeHTTP(w, r)
}

// challenge names the scheme on a 401, as HTTP asks: go-sdk's bearer
// middleware does only when told of OAuth metadata, which a proxy's local
// token has none of.
type challenge struct{ http.ResponseWriter }

func (c *challenge) WriteHeader(code int) {
	if code == http.StatusUnauthorized {
		c.Header().Set("WWW-Authenticate", `Bearer realm="mcpsh proxy"`)
	}
	c.ResponseWriter.WriteHeader(code)
}

// serveSDK reserves a session for a POST that starts one (refused when
// the proxy serves as many as it may), numbers each POST, and hands the
// request to go-sdk.
func (l *Listener) serveSDK(sdk http.Handler, w http.ResponseWriter, r *http.Request) {
	r.Header.Del(postHeader)
	if r.Method == http.MethodDelete {
		// go-sdk's Close waits for the session's handlers: the host's
		// calls still running end first (cancelled upstream, recorded).
		if h := l.hostOf(r.Header.Get(sessionHeader)); h != nil {
			h.stop()
		}
	}
	if r.Method != http.MethodPost {
		sdk.ServeHTTP(w, r)
		return
	}
	var s *slot
	if r.Header.Get(sessionHeader) == "" {
		s = l.reserve()
		if s == nil {
			http.Error(w, fmt.Sprintf("mcpsh proxy: serving %d host sessions, the most it serves at once; end one (DELETE) or try again later", l.o.MaxSessions), http.StatusServiceUnavailable)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), slotKey{}, s))
	}
	n := l.p.posts.add(r.Context())
	defer l.p.posts.remove(n)
	r.Header.Set(postHeader, strconv.FormatUint(n, 10))
	sdk.ServeHTTP(w, r)
	if s != nil {
		l.settle(s)
	}
}

// getServer is go-sdk's question, asked on every request: the server of
// the request's session, or for a POST that starts one, a new server.
func (l *Listener) getServer(r *http.Request) *mcp.Server {
	if id := r.Header.Get(sessionHeader); id != "" {
		l.mu.Lock()
		defer l.mu.Unlock()
		if s := l.slots[id]; s != nil {
			return s.srv
		}
		return nil
	}
	s, _ := r.Context().Value(slotKey{}).(*slot)
	if s == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if s.srv == nil {
		s.srv = l.p.newServer(func() string { return s.id })
	}
	return s.srv
}

// hostOf is the host of the session with that ID, or nil.
func (l *Listener) hostOf(id string) *host {
	l.mu.Lock()
	s := l.slots[id]
	l.mu.Unlock()
	if s == nil || s.srv == nil {
		return nil
	}
	return l.p.hostOfServer(s.srv)
}

func (l *Listener) reserve() *slot {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing || len(l.slots) >= l.o.MaxSessions {
		return nil
	}
	s := &slot{id: rand.Text()}
	l.slots[s.id] = s
	return s
}

func (l *Listener) release(s *slot) {
	l.mu.Lock()
	delete(l.slots, s.id)
	l.mu.Unlock()
}

// settle follows a session once the POST that started it is answered: a
// session go-sdk kept lives until the host ends it (DELETE), it times
// out, or the proxy ends; then its calls are recorded and its upstream
// ends. One that never got a request is go-sdk's to drop.
func (l *Listener) settle(s *slot) {
	l.mu.Lock()
	srv := s.srv
	l.mu.Unlock()
	h := l.p.hostOfServer(srv)
	if h == nil {
		l.release(s)
		return
	}
	l.ended.Add(1)
	go func() {
		defer l.ended.Done()
		_ = h.ss.Wait()
		h.close()
		l.p.forget(h.ss)
		l.release(s)
	}()
}

// Serve serves hosts until ctx ends, then ends every host session (their
// upstream servers with them) and removes the token file.
func (l *Listener) Serve(ctx context.Context) error {
	srv := &http.Server{Handler: l, ReadHeaderTimeout: 30 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l.ln) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	l.mu.Lock()
	l.closing = true
	l.mu.Unlock()
	for _, h := range l.p.allHosts() {
		// Calls first: go-sdk's Close waits for them.
		h.stop()
		go h.ss.Close()
	}
	l.ended.Wait()
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	_ = srv.Shutdown(sctx)
	cancel()
	_ = srv.Close()
	if l.file != "" {
		_ = os.Remove(l.file)
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// postTable maps each POST's number to its context while it is served.
type postTable struct {
	mu   sync.Mutex
	next uint64
	ctxs map[uint64]context.Context
}

func (t *postTable) add(ctx context.Context) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	t.ctxs[t.next] = ctx
	return t.next
}

func (t *postTable) remove(n uint64) {
	t.mu.Lock()
	delete(t.ctxs, n)
	t.mu.Unlock()
}

// withPost ends ctx when the POST that carried req is gone: go-sdk keeps
// a 2025 session's handler running after the host drops the request, and
// only the POST's context says the host gave up. A POST already gone (it
// was dropped before the handler started) ends ctx at once. Over stdio,
// ctx is as it was.
func (p *Proxy) withPost(ctx context.Context, req mcp.Request) (context.Context, context.CancelFunc) {
	extra := req.GetExtra()
	if p.posts == nil || extra == nil || extra.Header == nil {
		return ctx, func() {}
	}
	n, err := strconv.ParseUint(extra.Header.Get(postHeader), 10, 64)
	if err != nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	p.posts.mu.Lock()
	post, ok := p.posts.ctxs[n]
	p.posts.mu.Unlock()
	if !ok {
		cancel()
		return ctx, cancel
	}
	stop := context.AfterFunc(post, cancel)
	return ctx, func() { stop(); cancel() }
}
