package client

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveLoopback serves h on 127.0.0.1 only.
func serveLoopback(t *testing.T, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL
}

// headerCheck counts requests that carry the configured header.
func headerCheck(h http.Handler, seen *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") == "secret" {
			seen.Add(1)
		}
		h.ServeHTTP(w, r)
	})
}

func TestStreamableHTTP(t *testing.T) {
	t.Parallel()
	for _, jsonResponse := range []bool{false, true} {
		name := "sse-responses"
		if jsonResponse {
			name = "json-responses"
		}
		t.Run(name, func(t *testing.T) {
			c := newCountingServer()
			var seen atomic.Int32
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return c.srv },
				&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
			url := serveLoopback(t, headerCheck(h, &seen))
			s, err := Connect(context.Background(), Target{Kind: KindHTTP, URL: url, Headers: map[string]string{"X-Token": "secret"}, Trust: policy.Trusted}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.ListTools(context.Background()); err != nil {
				t.Fatal(err)
			}
			if tool := mustTool(t, s, "add"); tool.Hints.Destructive != policy.False {
				t.Errorf("add hints %+v", tool.Hints)
			}
			var progress atomic.Int32
			o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "slow"), Args: map[string]any{"steps": 3}, Mode: policy.Batch,
				Timeout: 5 * time.Second, OnProgress: func(Progress) { progress.Add(1) }})
			if o.Status != StatusOK || string(o.StructuredContent) != `{"echo":"done"}` {
				t.Fatalf("slow: %s %s %s", o.Status, o.Error, o.StructuredContent)
			}
			if !jsonResponse && !eventually(func() bool { return progress.Load() == 3 }) {
				t.Errorf("progress over SSE: got %d notifications, want 3", progress.Load())
			}
			if seen.Load() == 0 {
				t.Error("the configured header never reached the server")
			}
		})
	}
}

func TestLegacySSE(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	var seen atomic.Int32
	url := serveLoopback(t, headerCheck(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return c.srv }, nil), &seen))
	s, err := Connect(context.Background(), Target{Kind: KindSSE, URL: url, Headers: map[string]string{"X-Token": "secret"}, Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get"), Args: map[string]any{"text": "sse"}, Mode: policy.Batch})
	if o.Status != StatusOK || c.executions("get") != 1 {
		t.Fatalf("%s %s", o.Status, o.Error)
	}
	if seen.Load() == 0 {
		t.Error("the configured header never reached the server")
	}
}

func TestNotificationsArriveAsEvents(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	s := connectCounting(t, c)
	mcp.AddTool(c.srv, &mcp.Tool{Name: "late"}, func(context.Context, *mcp.CallToolRequest, textIn) (*mcp.CallToolResult, out, error) {
		return nil, out{}, nil
	})
	select {
	case e := <-s.Events():
		if e.Kind != EventToolsChanged {
			t.Fatalf("event %+v", e)
		}
	case <-time.After(testBound):
		t.Fatal("no tools_changed event")
	}
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustTool(t, s, "late")
}

// eventually polls cond until it holds, or for testBound: a visible effect
// is waited for, never timed.
func eventually(cond func() bool) bool {
	deadline := time.Now().Add(testBound)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}
