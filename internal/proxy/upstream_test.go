package proxy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the upstream server is told of the host, and what of the host's it
// may ask for.

// The upstream hears mcpsh's name with the host's in its title, and is
// offered only what the host declared: a host that cannot answer a form
// gets the server's forms declined, without the server being told it could
// ask.
func TestTheUpstreamIsOfferedWhatTheHostDeclared(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	// go-sdk declares roots when its capabilities are left nil: this host
	// declares nothing.
	cs := r.goHost("2025-11-25", &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	res := callTool(t, cs, "ask", nil)
	if !strings.Contains(textOf(res), "does not support elicitation") {
		t.Errorf("ask on a host without elicitation: %q; want the request refused", textOf(res))
	}
	if client := stateFile(t, r.state, "client"); client != `{"name":"mcpsh","title":"mcpsh (proxy for Test Host 9.1)","version":"test"} {}`+"\n" {
		t.Errorf("the upstream's clientInfo and capabilities: %q", client)
	}

	r2 := newRig(t, "proxy")
	all := &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
		//lint:ignore SA1019 SEP-2577 deprecates sampling; the proxy passes it on through the deprecation window
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			from, _ := req.Params.Meta["dev.mcpsh/from-server"].(string)
			//lint:ignore SA1019 SEP-2577 deprecates sampling; the proxy passes it on through the deprecation window
			return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "a summary, for " + from}, Model: "host-model", Role: "assistant"}, nil
		},
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "full-host", Version: "1"}, all)
	//lint:ignore SA1019 SEP-2577 deprecates roots; the proxy passes them on through the deprecation window
	c.AddRoots(&mcp.Root{URI: "file:///work/project", Name: "project"})
	cs2, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: r2.hostOut, Writer: r2.hostIn}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs2.Close()
	caps := stateFile(t, r2.state, "client")
	if !strings.Contains(caps, `"elicitation":{"form":{}}`) || !strings.Contains(caps, `"roots":{"listChanged":true}`) || !strings.Contains(caps, `"sampling":{}`) {
		t.Errorf("the upstream was offered %q", caps)
	}
	if text := textOf(callTool(t, cs2, "sample", nil)); !strings.Contains(text, `a summary, for fixture`) || !strings.Contains(text, `"model":"host-model"`) {
		t.Errorf("sample: %q", text)
	}
	// The host's roots reach the upstream once the host has finished its
	// handshake.
	wait.Until(t, "the host's roots to reach the server", func() bool {
		return strings.Contains(textOf(callTool(t, cs2, "roots", nil)), "file:///work/project")
	})
}

func TestResourceSubscriptionsPassBothWays(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	updated := make(chan string, 4)
	cs := r.goHost("2025-11-25", &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		updated <- req.Params.URI
	}})
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "file:///a.txt"}); err != nil {
		t.Fatal(err)
	}
	if uri := wait.Recv(t, "resources/updated", updated); uri != "file:///a.txt" || fixture.CountIn(r.state, "subscribed", "file:///a.txt") != 1 {
		t.Fatalf("updated %q, subscribed %v", uri, fixture.Lines(r.state, "subscribed"))
	}
}

// A server slow to answer holds up only the call it is slow on: the host's
// other requests are answered meanwhile, and the slow call ends at its
// timeout with a tool error saying so.
func TestASlowServerDoesNotBlockTheHost(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy", func(o *Options) { o.Call.Timeout = 500 * time.Millisecond; o.Call.Attempts = 1 })
	cs := r.goHost("2025-11-25", nil)
	slow := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
		slow <- res
	}()
	wait.Until(t, "slow to reach the server", func() bool { return r.executions("slow") == 1 })
	if res := callTool(t, cs, "read", nil); res.IsError {
		t.Fatalf("read while slow ran: %q", textOf(res))
	}
	res := wait.Recv(t, "slow's answer", slow)
	if res == nil || !res.IsError || !strings.Contains(textOf(res), "no answer or progress within 500ms") {
		t.Fatalf("slow: %+v", res)
	}
}

func stateFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(dir, name))
	return string(b)
}
