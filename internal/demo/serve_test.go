package demo

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// childEnv makes the test binary act as `mcpsh serve-demo` over stdio, so
// TestServeStdio crosses a real process boundary.
const childEnv = "MCPSH_DEMO_STDIO_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if err := ServeStdio(context.Background(), New()); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func clientConnect(t *testing.T, tr mcp.Transport, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	opts.Capabilities = &mcp.ClientCapabilities{}
	c := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, opts)
	cs, err := c.Connect(t.Context(), tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}

func TestServeStdio(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cs := clientConnect(t, &mcp.CommandTransport{Command: cmd}, nil)
	if got := len(listTools(t, cs)); got != len(wantShapes) {
		t.Errorf("stdio server lists %d tools, want %d", got, len(wantShapes))
	}
	if got := callOK(t, cs, "add_note", map[string]any{"title": "over stdio"}); !strings.Contains(got, "#4") {
		t.Errorf("add_note over stdio: %q", got)
	}
	start := time.Now()
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	// The child must exit on its own when stdin closes, not wait for SIGTERM.
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("stdio child took %v to exit", d)
	}
}

func TestServeHTTP(t *testing.T) {
	s := New()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	addrs := make(chan net.Addr, 1)
	served := make(chan error, 1)
	go func() { served <- ServeHTTP(ctx, s, "127.0.0.1:0", func(a net.Addr) { addrs <- a }) }()
	addr := next(t, addrs, "the listener").String()

	changed, opts := listChanged()
	cs := clientConnect(t, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1}, opts)
	defer cs.Close()
	if got := len(listTools(t, cs)); got != len(wantShapes) {
		t.Errorf("HTTP server lists %d tools, want %d", got, len(wantShapes))
	}
	callOK(t, cs, "add_note", map[string]any{"title": "over HTTP"})
	if got := s.Executions("add_note"); got != 1 {
		t.Errorf("Executions(add_note) = %d, want 1", got)
	}
	// Notifications reach the client over the standalone SSE stream.
	callOK(t, cs, "toggle_extras", map[string]any{"enabled": true})
	next(t, changed, "tools/list_changed over HTTP")

	resp, err := http.Get("http://" + addr + "/other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /other: %s, want 404", resp.Status)
	}

	// Shutdown must not wait out the grace period on the open SSE stream.
	start := time.Now()
	cancel()
	if err := next(t, served, "ServeHTTP to return"); err != nil {
		t.Errorf("ServeHTTP: %v", err)
	}
	if d := time.Since(start); d >= shutdownGrace {
		t.Errorf("shutdown took %v", d)
	}
	for ss := range s.MCP().Sessions() {
		t.Errorf("session %q still open after shutdown", ss.ID())
	}
}

func TestServeHTTPBadAddress(t *testing.T) {
	if err := ServeHTTP(t.Context(), New(), "127.0.0.1:-1", nil); err == nil {
		t.Error("ServeHTTP on a bad address returned nil")
	}
}
