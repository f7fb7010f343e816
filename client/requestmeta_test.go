//lint:file-ignore SA1019 SEP-2577 deprecates logging; these tests hold how mcpsh asks for it through the deprecation window
package client

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the newest protocol removed, seen from a go-sdk server in this
// process: at 2026-07-28 there is no logging/setLevel (the level is in each
// request's _meta) and no ping (Ping sends server/discover); at 2025-11-25
// both are as they were.

// heard is what a server received: each request's method and the log level
// in its _meta ("" when absent); level reads the latest of a method.
type heard struct {
	mu       sync.Mutex
	requests [][2]string
}

func (h *heard) methods() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.requests {
		out = append(out, r[0])
	}
	return out
}

func (h *heard) level(method string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range slices.Backward(h.requests) {
		if r[0] == method {
			return r[1], true
		}
	}
	return "", false
}

// loggingServer has one tool, log_levels, that logs at debug, info, warning
// and error through the session (which filters by the level the client
// asked for), and records every request it receives in h.
func loggingServer(h *heard) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "logging", Version: "1"}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}})
	mcp.AddTool(srv, &mcp.Tool{Name: "log_levels", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		for _, l := range []mcp.LoggingLevel{"debug", "info", "warning", "error"} {
			if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: l, Logger: "logging", Data: string(l) + " message"}); err != nil {
				return nil, nil, err
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "logged"}}}, nil, nil
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			level := ""
			if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
				if m := p.GetMeta(); m != nil {
					level, _ = m[mcp.MetaKeyLogLevel].(string)
				}
			}
			h.mu.Lock()
			h.requests = append(h.requests, [2]string{method, level})
			h.mu.Unlock()
			return next(ctx, method, req)
		}
	})
	return srv
}

func TestLogLevelAt2026RidesEachRequest(t *testing.T) {
	t.Parallel()
	for _, v := range featureProtocols {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			h := &heard{}
			s, err := Connect(context.Background(), Target{Name: "in-process", Kind: KindInProcess, InProcess: loggingServer(h), Trust: policy.Trusted},
				&Options{ProtocolVersion: v, LogLevel: "warning"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.ListTools(context.Background()); err != nil {
				t.Fatal(err)
			}
			// The caller's own _meta must come back as it was given.
			meta := map[string]json.RawMessage{"trace": json.RawMessage(`"t-1"`)}
			o, err := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "log_levels"), Args: map[string]any{}, Mode: policy.Batch, Meta: meta})
			if err != nil || o.Status != StatusOK {
				t.Fatalf("log_levels: %+v, %v", o, err)
			}
			waitEvent(t, s, func(e Event) bool { return e.Kind == EventLog && e.Level == "warning" && e.Text == "warning message" })
			waitEvent(t, s, func(e Event) bool { return e.Kind == EventLog && e.Level == "error" && e.Text == "error message" })
			if len(meta) != 1 {
				t.Errorf("the call's _meta was written into: %v", meta)
			}
			got, _ := h.level("tools/call")
			setLevel := slices.Contains(h.methods(), "logging/setLevel")
			if v == LatestProtocol {
				if got != "warning" || setLevel {
					t.Errorf("at %s: tools/call's _meta logLevel %q, logging/setLevel sent: %v; want \"warning\" and no logging/setLevel (requests: %v)", v, got, setLevel, h.methods())
				}
				if l, _ := h.level("tools/list"); l != "warning" {
					t.Errorf("at %s: tools/list's _meta logLevel %q, want \"warning\"", v, l)
				}
			} else if got != "" || !setLevel {
				t.Errorf("at %s: tools/call's _meta logLevel %q, logging/setLevel sent: %v; want none and logging/setLevel (requests: %v)", v, got, setLevel, h.methods())
			}
		})
	}
}

func TestPingAt2026IsServerDiscover(t *testing.T) {
	t.Parallel()
	for _, v := range featureProtocols {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			h := &heard{}
			s := inProcess(t, loggingServer(h), v)
			s.SetLogLevel(context.Background(), "error")
			before := len(h.methods())
			d, err := s.Ping(context.Background())
			if err != nil || d <= 0 {
				t.Fatalf("Ping = %v, %v", d, err)
			}
			// Only the requests a ping could be: go-sdk opens its
			// subscriptions/listen stream on its own meanwhile.
			var sent []string
			for _, m := range h.methods()[before:] {
				if m == "ping" || m == "server/discover" {
					sent = append(sent, m)
				}
			}
			want := map[string]string{LatestProtocol: "server/discover", fallbackProtocol: "ping"}[v]
			if !slices.Equal(sent, []string{want}) || s.PingMethod() != want {
				t.Errorf("at %s Ping sent %v and says %q; want [%s]", v, sent, s.PingMethod(), want)
			}
			if l, _ := h.level("server/discover"); v == LatestProtocol && l != "error" {
				t.Errorf("server/discover's _meta logLevel %q, want \"error\"", l)
			}
		})
	}
}

func TestDiscoverAnswersWithTheServer(t *testing.T) {
	t.Parallel()
	s := inProcess(t, loggingServer(&heard{}), LatestProtocol)
	res, err := discover(context.Background(), s.current().cs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.SupportedVersions, LatestProtocol) || res.Capabilities == nil || res.Capabilities.Logging == nil {
		t.Errorf("server/discover answered %+v, want the server's versions and its logging capability", res)
	}
}
