package client

import (
	"context"
	"github.com/mcpsh/mcpsh/internal/testing/benchcpu"
	"os"
	"os/exec"
	"testing"

	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The call path's cost, measured against go-sdk on its own: both make the same
// read-only calls over one stdio session to the demo server (this test binary,
// re-run as the server), so a CPU profile shows the client alone.
//
//	go test ./client -run '^$' -bench 'Calls' -benchtime 3000x -cpuprofile /tmp/cpu.out
//	go tool pprof -top -cum /tmp/cpu.out
//
// internal/bench/compare.sh holds the built binary against a bare client the same way.

func serveDemo() int {
	if err := demo.ServeStdio(context.Background(), demo.New()); err != nil {
		return 1
	}
	return 0
}

// benchCalls are read-only calls with a text result, with structuredContent
// checked against an output schema, and with no arguments at all.
var benchCalls = []struct {
	tool string
	args map[string]any
}{
	{"get_note", map[string]any{"id": 1}},
	{"search_notes", map[string]any{"query": "release"}},
	{"list_notes", nil},
}

// demoCommand is this test binary, which serves the demo when
// MCPSH_BENCH_DEMO=1 (TestMain).
func demoCommand(b *testing.B) string {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	return exe
}

// BenchmarkCallsDo is Session.Do with a recorder that keeps nothing, so the
// session log's cost is left out (internal/sessionlog has BenchmarkRecord).
func BenchmarkCallsDo(b *testing.B) {
	ctx := context.Background()
	s, err := Connect(ctx, Target{Name: "demo", Kind: KindStdio, Command: demoCommand(b), Env: map[string]string{"MCPSH_BENCH_DEMO": "1"}, Trust: policy.Untrusted},
		&Options{ProtocolVersion: "2026-07-28", Recorder: func(*Outcome) error { return nil }})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ListTools(ctx); err != nil {
		b.Fatal(err)
	}
	tools := make([]*Tool, len(benchCalls))
	for i, c := range benchCalls {
		t, ok := s.Tool(c.tool)
		if !ok {
			b.Fatalf("the demo has no %s", c.tool)
		}
		tools[i] = t
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer benchcpu.Meter(b)()
	for i := range b.N {
		c := benchCalls[i%len(benchCalls)]
		o, err := s.Do(ctx, &Call{Tool: tools[i%len(tools)], Args: c.args, Mode: policy.Batch, Preapproved: true})
		if err != nil {
			b.Fatalf("%s: %v", c.tool, err)
		}
		if o.Status != StatusOK {
			b.Fatalf("%s: %s: %s", c.tool, o.Status, o.Error)
		}
	}
}

// BenchmarkCallsBare is the yardstick: go-sdk's CallTool and nothing else.
func BenchmarkCallsBare(b *testing.B) {
	ctx := context.Background()
	cmd := exec.Command(demoCommand(b))
	cmd.Env = append(os.Environ(), "MCPSH_BENCH_DEMO=1")
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.ReportAllocs()
	b.ResetTimer()
	defer benchcpu.Meter(b)()
	for i := range b.N {
		bc := benchCalls[i%len(benchCalls)]
		args := bc.args
		if args == nil {
			args = map[string]any{}
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: bc.tool, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %+v", bc.tool, err, res)
		}
	}
}
