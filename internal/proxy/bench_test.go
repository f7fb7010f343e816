package proxy

import (
	"context"
	"io"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkProxiedReadOnlyCall is one read-only call from a go-sdk host,
// over pipes, through the proxy, to the demo server in process: the
// proxy's own cost per call, for -cpuprofile. bench/compare measures it
// across processes against a direct call.
func BenchmarkProxiedReadOnlyCall(b *testing.B) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := New(Options{Target: client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: demo.New().MCP(), Trust: policy.Trusted}})
	served := make(chan error, 1)
	go func() { served <- p.Serve(context.Background(), inR, outW) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "bench-host", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "list_notes", Arguments: map[string]any{}}
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
