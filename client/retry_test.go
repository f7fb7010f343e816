package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestServerErrorsAreRetriedOnlyWhenReplaySafe(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	c.failFirst.Store(2)
	s := connectCounting(t, c)
	var notices []RetryNotice
	for _, name := range []string{"flaky_read", "flaky_idem"} {
		notices = nil
		o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, name), Mode: policy.Batch,
			OnRetry: func(n RetryNotice) { notices = append(notices, n) }})
		if o.Status != StatusOK || c.executions(name) != 3 || len(o.Attempts) != 3 {
			t.Fatalf("%s: status %s, executions %d, attempts %d; want ok after k+1 = 3", name, o.Status, c.executions(name), len(o.Attempts))
		}
		if len(notices) != 2 || notices[0].Failure != policy.ServerError || notices[0].Of != 4 || o.Attempts[0].WaitMS <= 0 {
			t.Errorf("%s: notices %+v, first attempt %+v", name, notices, o.Attempts[0])
		}
		if o.Attempts[0].Failure != "server_error" || !strings.Contains(o.Attempts[0].Error, "backend unavailable") {
			t.Errorf("%s: attempt %+v", name, o.Attempts[0])
		}
	}
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "flaky_write"), Mode: policy.Batch})
	if o.Status != StatusFailed || c.executions("flaky_write") != 1 || len(o.Attempts) != 1 {
		t.Fatalf("flaky_write: status %s executions %d attempts %d; a non-idempotent write must run once", o.Status, c.executions("flaky_write"), len(o.Attempts))
	}
	if !strings.Contains(o.Error, "may or may not have run; not retried because the tool is not idempotent") {
		t.Errorf("error %q", o.Error)
	}
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "fail"), Args: map[string]any{"text": "x"}, Mode: policy.Batch})
	if o.Status != StatusToolError || c.executions("fail") != 1 || len(o.Attempts) != 1 {
		t.Errorf("an isError result must run once: executions %d attempts %d", c.executions("fail"), len(o.Attempts))
	}
}

func TestRetryBudgetAndUntrustedServers(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	c.failFirst.Store(10)
	s := connectCounting(t, c)
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "flaky_read"), Mode: policy.Batch, Attempts: 2})
	if c.executions("flaky_read") != 2 || !strings.Contains(o.Error, "gave up after 2 attempts") {
		t.Errorf("executions %d, error %q", c.executions("flaky_read"), o.Error)
	}
	u, err := Connect(context.Background(), Target{Kind: KindInProcess, InProcess: c.srv, Trust: policy.Untrusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	u.ListTools(context.Background())
	tool, _ := u.Tool("flaky_idem")
	o, _ = u.Do(context.Background(), &Call{Tool: tool, Mode: policy.Batch, Preapproved: true})
	if c.executions("flaky_idem") != 1 || !strings.Contains(o.Error, "because the server is untrusted") {
		t.Errorf("untrusted: executions %d error %q", c.executions("flaky_idem"), o.Error)
	}
}

// reject503 answers the first k tools/call POSTs with 503 and Retry-After.
func reject503(h http.Handler, k int32, retryAfter string, seen *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body := readBody(r)
			if strings.Contains(body, `"tools/call"`) && seen.Add(1) <= k {
				w.Header().Set("Retry-After", retryAfter)
				http.Error(w, "overloaded", http.StatusServiceUnavailable)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

func TestHTTP503IsRetriedHonouringRetryAfter(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	var seen atomic.Int32
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return c.srv }, nil)
	url := serveLoopback(t, reject503(h, 1, "1", &seen))
	s, err := Connect(context.Background(), Target{Kind: KindHTTP, URL: url, Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.ListTools(context.Background())
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get"), Args: map[string]any{"text": "x"}, Mode: policy.Batch})
	if o.Status != StatusOK || len(o.Attempts) != 2 || c.executions("get") != 1 {
		t.Fatalf("status %s attempts %+v executions %d", o.Status, o.Attempts, c.executions("get"))
	}
	a := o.Attempts[0]
	if a.Failure != "transport_rejected" || !strings.Contains(a.Error, "HTTP 503") || a.WaitMS < 1000 {
		t.Errorf("first attempt %+v: want transport_rejected, HTTP 503, a wait of at least Retry-After 1s", a)
	}
	// A 503 on a write that is not idempotent is not retried: 5xx may have run.
	seen.Store(0)
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "add"), Args: map[string]any{"text": "x"}, Mode: policy.Batch})
	if o.Status != StatusFailed || len(o.Attempts) != 1 || c.executions("add") != 0 {
		t.Errorf("add: status %s attempts %d executions %d", o.Status, len(o.Attempts), c.executions("add"))
	}
}

func TestRequestsThatNeverLeftAreRetriedForAnyTool(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return c.srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	ts := httptest.NewServer(h)
	s, err := Connect(context.Background(), Target{Kind: KindHTTP, URL: ts.URL, Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.ListTools(context.Background())
	// Nothing listens now: every request fails to connect. (The session's
	// subscriptions/listen stream, protocol 2026-07-28, is a request that
	// never ends: close it first, or Close waits for it.)
	ts.CloseClientConnections()
	ts.Close()
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "add"), Args: map[string]any{"text": "x"}, Mode: policy.Batch, Attempts: 3})
	if len(o.Attempts) != 3 || o.Attempts[0].Failure != "not_sent" || c.executions("add") != 0 {
		t.Fatalf("attempts %+v: a write that provably never left may be sent again", o.Attempts)
	}
	if !strings.Contains(o.Error, "never reached the server in 3 attempts") {
		t.Errorf("error %q", o.Error)
	}
}

func TestCrashedServerIsRestarted(t *testing.T) {
	t.Parallel()
	count := filepath.Join(t.TempDir(), "executions")
	target := fakeTarget(t, "crashy")
	target.Env["MCPSH_FAKE_COUNT"] = count
	var events []Event
	s, err := Connect(context.Background(), target, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.ListTools(context.Background())

	// A read-only call whose server dies mid-call runs again on the restarted server.
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "read"), Mode: policy.Batch, Timeout: 5 * time.Second})
	if o.Status != StatusOK || executionsIn(count, "read") != 2 || s.Restarts() != 1 {
		t.Fatalf("read: status %s (%s), executions %d, restarts %d", o.Status, o.Error, executionsIn(count, "read"), s.Restarts())
	}
	if o.Attempts[0].Failure != "connection_lost" || !strings.Contains(o.Attempts[0].Error, "crashed while running read") {
		t.Errorf("first attempt %+v: want connection_lost with the server's last words", o.Attempts[0])
	}
	// A write that is not idempotent is not replayed, but the session goes on.
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "write"), Mode: policy.Batch, Timeout: 5 * time.Second})
	if o.Status != StatusFailed || executionsIn(count, "write") != 1 || !strings.Contains(o.Error, "not retried because the tool is not idempotent") {
		t.Fatalf("write: status %s, executions %d, error %q", o.Status, executionsIn(count, "write"), o.Error)
	}
	if s.Restarts() != 2 {
		t.Errorf("restarts %d, want 2 (after each crash)", s.Restarts())
	}
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "write"), Mode: policy.Batch, Timeout: 5 * time.Second})
	if o.Status != StatusOK {
		t.Errorf("the next call on the restarted server: %s %s", o.Status, o.Error)
	}
	for len(s.Events()) > 0 {
		events = append(events, <-s.Events())
	}
	restarted := 0
	for _, e := range events {
		if e.Kind == EventReconnected {
			restarted++
		}
	}
	if restarted != 2 {
		t.Errorf("%d reconnected events, want 2", restarted)
	}
}

func TestServerThatDiedBetweenCallsIsBroughtBack(t *testing.T) {
	t.Parallel()
	count := filepath.Join(t.TempDir(), "executions")
	target := fakeTarget(t, "crashy")
	target.Env["MCPSH_FAKE_COUNT"] = count
	s, err := Connect(context.Background(), target, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.ListTools(context.Background())
	c := s.current()
	c.proc.Close()                   // the server goes away while nothing is in flight
	<-c.closed                       // and the session has noticed
	countExecutionAs(count, "write") // so the restarted server does not crash on write
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "write"), Mode: policy.Batch, Timeout: 5 * time.Second})
	if o.Status != StatusOK || len(o.Attempts) != 1 || s.Restarts() != 1 {
		t.Fatalf("status %s (%s) attempts %+v restarts %d\nstderr: %q", o.Status, o.Error, o.Attempts, s.Restarts(), s.StderrTail(20))
	}
}

// swapHandler serves whichever handler is current, so a test can make the
// server forget its sessions.
type swapHandler struct{ h atomic.Pointer[http.Handler] }

func (s *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}

func TestLostHTTPSessionReconnects(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	newHandler := func() *http.Handler {
		var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return c.srv }, nil)
		return &h
	}
	sw := &swapHandler{}
	sw.h.Store(newHandler())
	url := serveLoopback(t, sw)
	s, err := Connect(context.Background(), Target{Kind: KindHTTP, URL: url, Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.ListTools(context.Background())
	sw.h.Store(newHandler()) // the server restarts and forgets every session: 404 from now on
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get"), Args: map[string]any{"text": "x"}, Mode: policy.Batch})
	if o.Status != StatusOK || s.Restarts() != 1 || c.executions("get") != 1 {
		t.Fatalf("status %s (%s) attempts %+v restarts %d", o.Status, o.Error, o.Attempts, s.Restarts())
	}
}

// TestRetryAfterCannotOutlastTheRetryLimit: a server asking to wait longer than
// --retry-max allows gets no further attempt.
func TestRetryAfterCannotOutlastTheRetryLimit(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	var seen atomic.Int32
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return c.srv }, nil)
	url := serveLoopback(t, reject503(h, 5, "30", &seen))
	s, err := Connect(context.Background(), Target{Kind: KindHTTP, URL: url, Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.ListTools(context.Background())
	start := time.Now()
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get"), Args: map[string]any{"text": "x"}, Mode: policy.Batch, RetryMax: time.Second})
	if len(o.Attempts) != 1 || !strings.Contains(o.Error, "retry limit of 1s") || time.Since(start) > 10*time.Second {
		t.Fatalf("attempts %+v error %q", o.Attempts, o.Error)
	}
}
