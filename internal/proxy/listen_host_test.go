package proxy

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A go-sdk client as the host, over streamable HTTP: the same path as on
// stdio (listing as the server wrote it, decisions, the log naming the
// host), at the protocol the stateful handler serves.

// go-sdk's client tries 2026-07-28 first; the stateful HTTP handler
// serves 2025-11-25 and older only (a 2026 host would need stateless
// serving, with no session for an upstream to live in), so the host
// settles on 2025-11-25, and the log says so.
func TestListenGoHostListsCallsAndIsRefusedAsOnStdio(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	cs, b := r.goHost("http-host", "", nil)
	if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Errorf("negotiated %q; want 2025-11-25", v)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	// The first page, as the fixture wrote it (but for whitespace and the
	// listing's cache hints).
	page1 := strings.Replace(compact(t, fixture.ProxyToolsPage1), `,"ttlMs":60000,"cacheScope":"shared"`, "", 1)
	if got := string(b.result("tools")); got != page1 {
		t.Errorf("tools/list over HTTP:\n got %s\nwant %s", got, page1)
	}

	res := callToolHTTP(t, cs, "read")
	if res.IsError || textOf(res) != "ran read" || r.executions("read") != 1 {
		t.Fatalf("read: %+v, executions %d", res, r.executions("read"))
	}
	res = callToolHTTP(t, cs, "wipe")
	if !res.IsError || !strings.Contains(textOf(res), "nothing was sent") || r.executions("wipe") != 0 {
		t.Fatalf("wipe: %q, executions %d", textOf(res), r.executions("wipe"))
	}
	out := r.logged()
	if len(out) != 2 {
		t.Fatalf("logged %d calls", len(out))
	}
	read, wipe := out[0], out[1]
	if read.Status != client.StatusOK || read.ApprovedBy != policy.ByPolicy || !read.Proxy || read.Host == nil ||
		read.Host.Name != "http-host" || read.Host.Protocol != "2025-11-25" {
		t.Errorf("read logged %+v (host %+v)", read, read.Host)
	}
	if wipe.Status != client.StatusRefused || wipe.Need != policy.NeedApproval {
		t.Errorf("wipe logged %s need %q", wipe.Status, wipe.Need)
	}
}

func callToolHTTP(t *testing.T, cs *mcp.ClientSession, name string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// A host's user approves a destructive call through a form, over HTTP as
// over stdio (the approval is asked on the call's own stream).
func TestListenHostElicitationApproves(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	yes := &answering{action: "accept", content: map[string]any{"decision": "run"}}
	cs, _ := r.goHost("http-host", "", yes.options())
	res := callToolHTTP(t, cs, "wipe")
	if res.IsError || r.executions("wipe") != 1 || yes.asked.Load() != 1 {
		t.Fatalf("wipe: %q, executions %d, asked %d", textOf(res), r.executions("wipe"), yes.asked.Load())
	}
	if o := r.logged(); len(o) != 1 || o[0].ApprovedBy != policy.ByHost {
		t.Errorf("logged %+v", o)
	}
}

// notes records the resource updates a host hears, in order.
type notes struct {
	mu   sync.Mutex
	uris []string
	got  chan string
}

func (n *notes) options() *mcp.ClientOptions {
	n.got = make(chan string, 16)
	return &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		n.mu.Lock()
		n.uris = append(n.uris, req.Params.URI)
		n.mu.Unlock()
		n.got <- req.Params.URI
	}}
}

// next waits for the next update the host hears, and says which it was.
func (n *notes) next(t *testing.T) string {
	t.Helper()
	return wait.Recv(t, "a resource update", n.got)
}

func subscribe(t *testing.T, cs *mcp.ClientSession, uri string) {
	t.Helper()
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatalf("subscribe %s: %v", uri, err)
	}
}

// Each host session has a go-sdk server of its own: go-sdk tells every
// session of a server that is subscribed to a resource when it is
// updated, so through a shared one host B would hear what host A's server
// said. The fixture says a resource was updated as it takes a
// subscription.
func TestListenHostSessionsDoNotHearEachOther(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	var a, b notes
	csA, _ := r.goHost("host-a", "", a.options())
	csB, _ := r.goHost("host-b", "", b.options())

	subscribe(t, csB, "file:///a.txt")
	if u := b.next(t); u != "file:///a.txt" {
		t.Fatalf("B heard %q first", u)
	}
	// A's server says a.txt was updated; then b.txt. A's upstream events
	// are passed on in order, so once A hears b.txt, whatever its a.txt
	// update was sent to has it.
	subscribe(t, csA, "file:///a.txt")
	subscribe(t, csA, "file:///b.txt")
	for _, want := range []string{"file:///a.txt", "file:///b.txt"} {
		if u := a.next(t); u != want {
			t.Fatalf("A heard %q; want %q", u, want)
		}
	}
	// B's marker: its own server's update of b.txt, on the same stream
	// after anything sent to B before.
	subscribe(t, csB, "file:///b.txt")
	for {
		u := b.next(t)
		if u == "file:///b.txt" {
			break
		}
		t.Errorf("host B heard host A's server: an update of %s", u)
	}
	if n := len(fixture.Lines(r.state, "pids")); n != 2 {
		t.Errorf("%d upstream servers for two host sessions", n)
	}
}

// A host that drops the POST of a call in flight gives up on it: the call
// is cancelled upstream (the server is told), recorded as cancelled, and
// not sent again.
func TestListenDroppedPostCancelsTheCallUpstream(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	id := r.rawSession()
	hdr := map[string]string{sessionHeader: id, "Mcp-Protocol-Version": "2025-11-25"}
	ctx, drop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.url,
			strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+r.token)
		// A host's own marker is overwritten, never believed.
		req.Header.Set(postHeader, "1")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		if res, err := http.DefaultClient.Do(req); err == nil {
			// Hold the stream open until the drop.
			_, _ = fmt.Fscan(res.Body)
			res.Body.Close()
		}
	}()
	wait.Until(t, "slow to reach the server", func() bool { return r.executions("slow") == 1 })
	drop()
	<-done
	wait.Until(t, "the server to be told of the cancellation", func() bool { return len(fixture.Lines(r.state, "cancelled")) == 1 })
	wait.Until(t, "the call to be recorded", func() bool { return len(r.logged()) == 1 })
	if o := r.logged()[0]; o.Status != client.StatusCancelled || r.executions("slow") != 1 {
		t.Errorf("logged %s, executions %d", o.Status, r.executions("slow"))
	}
	// The session lives on: the host may call again.
	res, body := r.rawPost(context.Background(), `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"read","arguments":{}}}`, hdr)
	if res.StatusCode != 200 || !strings.Contains(body, "ran read") {
		t.Errorf("the next call: %s %s", res.Status, body)
	}
}

// At most DefaultMaxSessions host sessions, each with its upstream; the
// next is told why, and is served once one ends.
func TestListenServesAtMostSixteenSessions(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	var ids []string
	for range DefaultMaxSessions {
		ids = append(ids, r.rawSession())
	}
	res, body := r.rawPost(context.Background(), rawInitialize, nil)
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "serving 16 host sessions") {
		t.Fatalf("the 17th session: %s %q", res.Status, body)
	}
	if n := len(fixture.Lines(r.state, "pids")); n != DefaultMaxSessions {
		t.Errorf("%d upstream servers", n)
	}
	// A request in a session already open is served.
	res, body = r.rawPost(context.Background(), `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{sessionHeader: ids[3], "Mcp-Protocol-Version": "2025-11-25"})
	if res.StatusCode != 200 {
		t.Errorf("ping in an open session: %s %s", res.Status, body)
	}
	req, _ := http.NewRequest(http.MethodDelete, r.url, nil)
	req.Header.Set("Authorization", "Bearer "+r.token)
	req.Header.Set(sessionHeader, ids[0])
	dres, err := http.DefaultClient.Do(req)
	if err != nil || dres.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", dres, err)
	}
	dres.Body.Close()
	wait.Until(t, "a session to be free", func() bool {
		r.l.mu.Lock()
		defer r.l.mu.Unlock()
		return len(r.l.slots) < DefaultMaxSessions
	})
	if res, body := r.rawPost(context.Background(), rawInitialize, nil); res.StatusCode != 200 {
		t.Errorf("a session after one ended: %s %s", res.Status, body)
	}
}
