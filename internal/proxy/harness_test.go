package proxy

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The proxy runs in the test process, serving a host over pipes; the
// upstream is internal/testing/fixture's server, played by this test binary in a
// process of its own, whose state files say what reached it.

func TestMain(m *testing.M) {
	if name := os.Getenv("MCPSH_FIXTURE"); name != "" {
		sc, err := fixture.Lookup(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		s := &fixture.Server{Scenario: sc, StateDir: os.Getenv("MCPSH_FIXTURE_STATE"), Stderr: os.Stderr}
		if err := s.ServeStdio(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// rig is a proxy serving one host over pipes, in front of a fixture.
type rig struct {
	t     *testing.T
	state string
	// hostIn is what the host writes (the proxy's stdin), hostOut what it
	// reads (the proxy's stdout).
	hostIn  *io.PipeWriter
	hostOut *io.PipeReader
	served  chan error
	cancel  context.CancelFunc

	mu       sync.Mutex
	outcomes []*client.Outcome
	warnings []string
}

// setup changes a rig's options before it starts.
type setup func(o *Options)

func untrusted(o *Options) { o.Target.Trust = policy.Untrusted }

// newRig starts a proxy in front of the fixture playing scenario.
func newRig(t *testing.T, scenario string, setups ...setup) *rig {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, state: t.TempDir(), served: make(chan error, 1)}
	o := Options{
		Target: client.Target{Name: "fixture", Kind: client.KindStdio, Command: exe, Trust: policy.Trusted,
			Env: map[string]string{"MCPSH_FIXTURE": scenario, "MCPSH_FIXTURE_STATE": r.state}},
		Client: client.Options{ProtocolVersion: "2025-11-25", Recorder: func(o *client.Outcome) error {
			r.mu.Lock()
			r.outcomes = append(r.outcomes, o)
			r.mu.Unlock()
			return nil
		}},
		Version:         "test",
		ApprovalTimeout: 10 * time.Second,
		Warn: func(s string) {
			r.mu.Lock()
			r.warnings = append(r.warnings, s)
			r.mu.Unlock()
		},
	}
	for _, s := range setups {
		s(&o)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r.hostIn, r.hostOut = inW, outR
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.served <- New(o).Serve(ctx, inR, outW); outW.Close() }()
	t.Cleanup(r.close)
	return r
}

// close ends the host's side, both ways, as a host process that exits
// does, and waits for the proxy to end.
func (r *rig) close() {
	r.hostIn.Close()
	r.hostOut.Close()
	select {
	case <-r.served:
	case <-time.After(10 * time.Second):
		r.cancel()
		<-r.served
	}
}

// logged are the outcomes the session log got.
func (r *rig) logged() []*client.Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*client.Outcome(nil), r.outcomes...)
}

func (r *rig) executions(tool string) int { return fixture.CountIn(r.state, "executions", tool) }

// goHost connects a go-sdk client to the proxy as the host: version ""
// takes go-sdk's default (2026-07-28); opts may set an elicitation handler.
func (r *rig) goHost(version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	r.t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test-host", Title: "Test Host", Version: "9.1"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: r.hostOut, Writer: r.hostIn}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { cs.Close() })
	return cs
}

// rawHost is a host that writes and reads JSON-RPC lines itself.
type rawHost struct {
	t    *testing.T
	w    io.Writer
	sc   *bufio.Scanner
	next int
	// lines are every line the proxy wrote, in order.
	lines []string
	// notes are the notifications and requests read while waiting.
	notes []map[string]json.RawMessage
}

func (r *rig) rawHost() *rawHost {
	sc := bufio.NewScanner(r.hostOut)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &rawHost{t: r.t, w: r.hostIn, sc: sc}
}

// send writes one line.
func (h *rawHost) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.w, line+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

// call sends a request and returns its answer's result or error, keeping
// what came before it.
func (h *rawHost) call(method, params string) (result, errObj json.RawMessage) {
	h.t.Helper()
	h.next++
	id := fmt.Sprint(h.next)
	if params == "" {
		params = "{}"
	}
	h.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`)
	for {
		m := h.read()
		if string(m["id"]) == id && m["method"] == nil {
			return m["result"], m["error"]
		}
		h.notes = append(h.notes, m)
	}
}

// read reads one message; every line must be one.
func (h *rawHost) read() map[string]json.RawMessage {
	h.t.Helper()
	if !h.sc.Scan() {
		h.t.Fatalf("the proxy's stdout ended: %v", h.sc.Err())
	}
	line := h.sc.Text()
	h.lines = append(h.lines, line)
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil || string(m["jsonrpc"]) != `"2.0"` {
		h.t.Fatalf("the proxy wrote a line that is not JSON-RPC: %q", line)
	}
	return m
}

// initialize makes the handshake at version.
func (h *rawHost) initialize(version, caps string) json.RawMessage {
	h.t.Helper()
	res, e := h.call("initialize", `{"protocolVersion":"`+version+`","capabilities":`+caps+`,"clientInfo":{"name":"raw-host","version":"0.1"}}`)
	if e != nil {
		h.t.Fatalf("initialize: %s", e)
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// textOf is the text of a tool result's content, joined.
func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
