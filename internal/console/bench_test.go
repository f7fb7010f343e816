package console

import (
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/proxy"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// slowConsole is a console that reads one line a millisecond: a thousand
// lines a second, fewer than a busy proxy publishes (three a call). stop
// says how many lines it read, and how many events the proxy dropped for
// it (counted at the proxy: the console would hear the count only once it
// caught up).
func slowConsole(b *testing.B, h *Hub) (stop func() (read, dropped int64)) {
	r := attachRaw(b, h)
	var nread atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r.sc.Scan() {
			nread.Add(1)
			time.Sleep(time.Millisecond)
		}
	}()
	return func() (int64, int64) {
		var dropped int64
		h.mu.Lock()
		for p := range h.consoles {
			p.out.mu.Lock()
			dropped += p.out.lost
			p.out.mu.Unlock()
		}
		h.mu.Unlock()
		r.c.Close()
		<-done
		return nread.Load(), dropped
	}
}

// BenchmarkProxiedCall is one read-only call from a go-sdk host through
// the proxy to the demo, in process: without the link, with the link and
// no console, and with a console that reads slower than the calls come.
// The proxy's cost per call must not grow with the slow console: it drops
// events (dropped/op) rather than wait.
func BenchmarkProxiedCall(b *testing.B) {
	for _, mode := range []string{"no-link", "no-console", "slow-console"} {
		b.Run(mode, func(b *testing.B) {
			o := proxy.Options{Target: client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: demo.New().MCP(), Trust: policy.Trusted}}
			var stop func() (int64, int64)
			if mode != "no-link" {
				h, err := Start(HubOptions{Dir: shortDir(b)})
				if err != nil {
					b.Fatal(err)
				}
				defer h.Close()
				o.Console, o.Observe = h, h.Observe
				if mode == "slow-console" {
					stop = slowConsole(b, h)
				}
			}
			p := proxy.New(o)
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
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
			if stop != nil {
				read, dropped := stop()
				b.ReportMetric(float64(dropped)/float64(b.N), "dropped/op")
				b.ReportMetric(float64(read)/float64(b.N), "read/op")
			}
			cs.Close()
			inW.Close()
			outR.Close()
			<-served
		})
	}
}

// BenchmarkObserve is the proxy's cost of publishing one call event: with
// no console, and with a console that reads a thousand lines a second.
func BenchmarkObserve(b *testing.B) {
	for _, mode := range []string{"no-console", "slow-console"} {
		b.Run(mode, func(b *testing.B) {
			h, err := Start(HubOptions{Dir: shortDir(b)})
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			var stop func() (int64, int64)
			if mode == "slow-console" {
				stop = slowConsole(b, h)
			}
			e := ended(0)
			b.ReportAllocs()
			for b.Loop() {
				e.Call++
				h.Observe(e)
			}
			b.StopTimer()
			if stop != nil {
				_, dropped := stop()
				b.ReportMetric(float64(dropped)/float64(b.N), "dropped/op")
			}
		})
	}
}
