//lint:file-ignore SA1019 SEP-2577 deprecates roots and logging; these tests hold what mcpsh passes on through the deprecation window

package proxy

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What passes between the host and the server besides calls: the
// server's own requests, progress, log messages, list changes; and what
// happens when the host gives up on a call or goes away.

// A form the server sends reaches the host marked as the server's; the
// host's yes to it goes to the server only, and approves no call.
func TestAServersQuestionIsMarkedAndApprovesNothing(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "proxy")
			var mu sync.Mutex
			var messages []string
			opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				mu.Lock()
				messages = append(messages, req.Params.Message)
				mu.Unlock()
				if strings.HasPrefix(req.Params.Message, "From server") {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "run"}}, nil
				}
				return &mcp.ElicitResult{Action: "decline"}, nil
			}}
			cs := r.goHost(v.version, opts)
			res := callTool(t, cs, "ask", nil)
			if res.IsError || !strings.Contains(textOf(res), `"action":"accept"`) {
				t.Fatalf("ask: %q", textOf(res))
			}
			res = callTool(t, cs, "wipe", nil)
			if !res.IsError || r.executions("wipe") != 0 {
				t.Fatalf("wipe after the host said yes to the server's form: %q, executions %d", textOf(res), r.executions("wipe"))
			}
			mu.Lock()
			defer mu.Unlock()
			if len(messages) != 2 || messages[0] != `From server "fixture" (not mcpsh): `+fixture.ProxyAskMessage ||
				!strings.HasPrefix(messages[1], "mcpsh asks before a call by Test Host 9.1") {
				t.Fatalf("the host was shown %q", messages)
			}
		})
	}
}

func TestProgressAndLogsReachTheHost(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	progress := make(chan *mcp.ProgressNotificationParams, 8)
	logs := make(chan *mcp.LoggingMessageParams, 8)
	cs := r.goHost("2025-11-25", &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { progress <- req.Params },
		LoggingMessageHandler:       func(_ context.Context, req *mcp.LoggingMessageRequest) { logs <- req.Params },
	})
	params := &mcp.CallToolParams{Name: "progress", Arguments: map[string]any{}}
	params.SetProgressToken("host-token")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		p := wait.Recv(t, "progress", progress)
		if p.ProgressToken != "host-token" || p.Progress != float64(i) || p.Total != 4 || p.Message != "step "+strconv.Itoa(i) {
			t.Fatalf("progress %d: %+v", i, p)
		}
	}
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "say", nil)
	l := wait.Recv(t, "the log message", logs)
	data, _ := json.Marshal(l.Data)
	if l.Level != "warning" || l.Logger != "fixture" || string(data) != `{"n":1,"said":"hello"}` {
		t.Fatalf("log: %+v %s", l, data)
	}
}

func TestListChangedReachesTheHost(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "redeclare")
			changed := make(chan struct{}, 4)
			cs := r.goHost(v.version, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
			if _, err := cs.ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			callTool(t, cs, "trigger", nil)
			wait.Recv(t, "list_changed", changed)
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range tools.Tools {
				if tl.Name == "get_thing" && (tl.Annotations.ReadOnlyHint || tl.Annotations.DestructiveHint == nil || !*tl.Annotations.DestructiveHint) {
					t.Errorf("the host's new listing has get_thing as %+v", tl.Annotations)
				}
			}
		})
	}
}

// A credential mcpsh holds for the server never reaches the host, however
// the server spells it.
func TestTheServersEchoOfACredentialIsRedacted(t *testing.T) {
	t.Parallel()
	const secret = "tok-7f3a9b2c41"
	r := newRig(t, "proxy", func(o *Options) {
		o.Target.Env["MCPSH_FIXTURE_SECRET"] = secret
		o.Target.Secrets = []string{secret}
	})
	h := r.rawHost()
	h.initialize("2025-11-25", `{}`)
	h.call("logging/setLevel", `{"level":"debug"}`)
	res, e := h.call("tools/call", `{"name":"leak","arguments":{}}`)
	if e != nil {
		t.Fatal(string(e))
	}
	all := strings.Join(h.lines, "\n")
	if strings.Contains(all, secret) || strings.Contains(all, `\u0074\u006f\u006b`) || strings.Count(string(res), "[redacted]") != 3 {
		t.Fatalf("the host got: %s", all)
	}
}

func TestHostCancellationCancelsUpstreamAndIsNotRetried(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	cs := r.goHost("2025-11-25", nil)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
		errc <- err
	}()
	wait.Until(t, "slow to reach the server", func() bool { return r.executions("slow") == 1 })
	cancel()
	if err := wait.Recv(t, "the cancelled call to return", errc); err == nil {
		t.Fatal("the cancelled call returned no error")
	}
	wait.Until(t, "the server to hear of the cancellation", func() bool { return len(fixture.Lines(r.state, "cancelled")) == 1 })
	wait.Until(t, "the call to be logged", func() bool { return len(r.logged()) == 1 })
	if o := r.logged()[0]; o.Status != client.StatusCancelled || len(o.Attempts) != 1 || r.executions("slow") != 1 {
		t.Fatalf("logged %s with %d attempts, executions %d", o.Status, len(o.Attempts), r.executions("slow"))
	}
}

// A server that comes back from a crash listing other tools, without
// saying so, still has the host told its list changed: mcpsh lists again
// after every restart, and compares.
func TestARestartedServerWithOtherToolsIsAListChange(t *testing.T) {
	t.Parallel()
	r := newRig(t, "redeclare-restart")
	changed := make(chan struct{}, 4)
	cs := r.goHost("2025-11-25", &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	res := callTool(t, cs, "get_thing", nil) // read-only: it crashes the server, which comes back with it destructive
	if !res.IsError || r.executions("get_thing") != 1 {
		t.Fatalf("get_thing: %q, executions %d; want not retried once re-declared destructive", textOf(res), r.executions("get_thing"))
	}
	wait.Recv(t, "list_changed", changed)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Annotations.ReadOnlyHint {
		t.Fatalf("the host's new listing: %+v %v", tools, err)
	}
}
