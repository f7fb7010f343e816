package proxy

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkProxiedReadOnlyCall is one read-only call from a go-sdk host,
// over pipes, through the proxy, to a server: the demo in process, a server
// in process whose tool answers with a constant (as internal/bench/compare's fast
// server does), and the fixture over stdio, the path a real proxy's calls
// take upstream (mcpsh's own connection, not go-sdk's), where the profile is
// the proxy's and its host's alone. For -cpuprofile; internal/bench/compare measures
// it across processes against a direct call.
func BenchmarkProxiedReadOnlyCall(b *testing.B) {
	inProcess := func(s *mcp.Server) client.Target {
		return client.Target{Name: "bench", Kind: client.KindInProcess, InProcess: s, Trust: policy.Trusted}
	}
	b.Run("demo", func(b *testing.B) { benchProxied(b, inProcess(demo.New().MCP()), "list_notes") })
	b.Run("fast", func(b *testing.B) { benchProxied(b, inProcess(constantServer()), "echo") })
	b.Run("stdio", func(b *testing.B) {
		exe, err := os.Executable()
		if err != nil {
			b.Fatal(err)
		}
		benchProxied(b, client.Target{Name: "fixture", Kind: client.KindStdio, Command: exe, Trust: policy.Trusted,
			Env: map[string]string{"MCPSH_FIXTURE": "proxy", "MCPSH_FIXTURE_STATE": b.TempDir()}}, "read")
	})
}

func constantServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fast", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	return s
}

func benchProxied(b *testing.B, target client.Target, tool string) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := New(Options{Target: target})
	served := make(chan error, 1)
	go func() { served <- p.Serve(context.Background(), inR, outW) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "bench-host", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
	b.StopTimer()
	cs.Close()
	inW.Close()
	outR.Close()
	<-served
}
