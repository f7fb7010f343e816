package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/policy"
)

// Over HTTP the POST is the send: once its body has left, a failure means
// the call may or may not have run, whatever the status says. These servers
// run the call and then answer its POST with 502, as a proxy in front of a
// server that is slow to answer does.

// rawStreamable is a streamable HTTP server written by hand with the same
// two tools as rawSSE: every answer is a plain JSON body.
type rawStreamable struct {
	*httptest.Server
	mu   sync.Mutex
	ran  map[string]int
	fail map[string]int
}

func newRawStreamable(t *testing.T) *rawStreamable {
	s := &rawStreamable{ran: map[string]int{}, fail: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *rawStreamable) executions(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ran[name]
}

func (s *rawStreamable) failNext(name string, n int) {
	s.mu.Lock()
	s.fail[name] = n
	s.mu.Unlock()
}

func (s *rawStreamable) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "no stream here", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if len(m.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	reply := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":`
	switch m.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "raw-1")
		reply += `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"raw-http","version":"1"}}}`
	case "tools/list":
		reply += `{"tools":` + rawSSETools + `}}`
	case "tools/call":
		s.mu.Lock()
		s.ran[m.Params.Name]++
		failing := s.fail[m.Params.Name] > 0
		if failing {
			s.fail[m.Params.Name]--
		}
		s.mu.Unlock()
		if failing {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		reply += `{"content":[{"type":"text","text":"ran ` + m.Params.Name + `"}]}}`
	case "ping":
		reply += `{}}`
	default:
		reply = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"method not found"}}`
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, reply)
}

// failingServer is what the test needs of either server.
type failingServer interface {
	executions(name string) int
	failNext(name string, n int)
}

// TestACallThatRanIsNotReplayedAfterA502: delete_all runs, and its POST is
// answered 502. The outcome says it may have run and it is not sent again
// (it ran once); read, answered 502 once, is replay-safe and runs again.
// Over legacy SSE go-sdk saw "failed to write: 502" and mcpsh took the call
// for never sent, so the server ran delete_all twice.
func TestACallThatRanIsNotReplayedAfterA502(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		serve func(t *testing.T) (Target, failingServer)
	}{
		{"legacy SSE", func(t *testing.T) (Target, failingServer) {
			s := newRawSSE(t)
			return Target{Name: "raw", Kind: KindSSE, URL: s.URL + "/sse", Trust: policy.Trusted}, s
		}},
		{"streamable HTTP", func(t *testing.T) (Target, failingServer) {
			s := newRawStreamable(t)
			return Target{Name: "raw", Kind: KindHTTP, URL: s.URL + "/mcp", Trust: policy.Trusted}, s
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			target, srv := tt.serve(t)
			s := connectFixture(t, target, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			srv.failNext("delete_all", 1)
			o, _ := s.Do(ctx, &Call{Tool: mustTool(t, s, "delete_all"), Args: map[string]any{}, Mode: policy.Batch, Preapproved: true, Timeout: 10 * time.Second})
			if n := srv.executions("delete_all"); n != 1 || len(o.Attempts) != 1 {
				t.Fatalf("delete_all ran %d times in %d attempts, want once: %s", n, len(o.Attempts), o.Error)
			}
			f := policy.Failure(o.Attempts[0].Failure)
			if o.Status != StatusFailed || !f.MayHaveRun() || !strings.Contains(o.Error, "HTTP 502 Bad Gateway") || !strings.Contains(o.Error, "may or may not have run") {
				t.Errorf("outcome %s, attempt %+v, error %q: want failed, possibly run", o.Status, o.Attempts[0], o.Error)
			}

			srv.failNext("read", 1)
			o, _ = s.Do(ctx, &Call{Tool: mustTool(t, s, "read"), Args: map[string]any{}, Mode: policy.Batch, Timeout: 10 * time.Second})
			if o.Status != StatusOK || srv.executions("read") != 2 || len(o.Attempts) != 2 {
				t.Errorf("read: %s after %d attempts, %d runs: %s", o.Status, len(o.Attempts), srv.executions("read"), o.Error)
			}
		})
	}
}

// TestLegacySSEEndpointOnAnotherOriginIsRefused: the endpoint event names
// another port of the same host. mcpsh sends nothing there, configured
// headers or not, and says which server named which endpoint.
func TestLegacySSEEndpointOnAnotherOriginIsRefused(t *testing.T) {
	t.Parallel()
	other := newRecorder(t)
	srv := newRawSSE(t)
	srv.endpoint = func(int) string { return other.URL + "/message?session=1&note=" + "%E2%80%AE" }
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := Connect(ctx, Target{Name: "legacy", Kind: KindSSE, URL: srv.URL + "/sse", Headers: map[string]string{"X-Api-Key": "hdr-secret-Vb7Nc2"}}, nil)
	if err == nil {
		s.Close()
		t.Fatal("connected through an endpoint on another origin")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "connecting to legacy (sse: "+srv.URL+"/sse): the server names "+other.URL+"/message?") ||
		!strings.Contains(msg, "&note=%E2%80%AE as the endpoint for messages, which is not on "+srv.URL+", the origin it was reached at") {
		t.Errorf("error = %q", msg)
	}
	if n := len(other.headers()); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

// TestLegacySSERedirectToAnotherOriginIsRefused: the endpoint is on the
// server's origin, but answers each message with a 307 to another port of
// the same host. A 307 keeps the POST and its body, the message itself:
// mcpsh does not follow it, and says where it was sent.
func TestLegacySSERedirectToAnotherOriginIsRefused(t *testing.T) {
	t.Parallel()
	other := newRecorder(t)
	srv := newRawSSE(t)
	srv.redirect = other.URL
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := Connect(ctx, Target{Name: "legacy", Kind: KindSSE, URL: srv.URL + "/sse"}, nil)
	if err == nil {
		s.Close()
		t.Fatal("connected through a redirect to another origin")
	}
	if msg := err.Error(); !strings.Contains(msg, "the server redirects a message to "+other.URL+"/message?session=") || !strings.Contains(msg, "which is not on "+srv.URL+", the origin it was reached at") {
		t.Errorf("error = %q", msg)
	}
	if bodies := other.received(); len(bodies) != 0 {
		t.Errorf("the other origin got the messages %q", bodies)
	}
}
