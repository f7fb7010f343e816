//go:build linux

package proxy

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
)

// upstreamPID is the process ID of the fixture's only start.
func (r *httpRig) upstreamPID() int {
	r.t.Helper()
	pids := fixture.Lines(r.state, "pids")
	if len(pids) != 1 {
		r.t.Fatalf("pids %v", pids)
	}
	pid, _ := strconv.Atoi(pids[0])
	return pid
}

// A host that ends its session (DELETE) in the middle of a call: the call
// is cancelled upstream and recorded, and the server ends.
func TestListenDeleteMidCallEndsTheCallAndTheServer(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	id := r.rawSession()
	hdr := map[string]string{sessionHeader: id, "Mcp-Protocol-Version": "2025-11-25"}
	r.postInFlight(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{}}}`, hdr)
	wait.Until(t, "slow to reach the server", func() bool { return r.executions("slow") == 1 })
	pid := r.upstreamPID()
	req, _ := http.NewRequest(http.MethodDelete, r.url, nil)
	req.Header.Set("Authorization", "Bearer "+r.token)
	req.Header.Set(sessionHeader, id)
	// go-sdk's DELETE waits for the session's calls: one that never
	// ends would hang it.
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil || res.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", res, err)
	}
	res.Body.Close()
	wait.Until(t, "the server's process to end", func() bool { return !processRunning(pid) })
	if o := r.logged(); len(o) != 1 || o[0].Status != client.StatusCancelled || r.executions("slow") != 1 {
		t.Fatalf("logged %+v, executions %d", o, r.executions("slow"))
	}
	if len(fixture.Lines(r.state, "cancelled")) != 1 {
		t.Errorf("the server was not told of the cancellation")
	}
}

// A session left idle times out, and its server ends with it.
func TestListenIdleSessionTimesOutWithItsServer(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{SessionTimeout: 300 * time.Millisecond})
	id := r.rawSession()
	pid := r.upstreamPID()
	wait.Until(t, "the server's process to end", func() bool { return !processRunning(pid) })
	res, body := r.rawPost(context.Background(), `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{sessionHeader: id, "Mcp-Protocol-Version": "2025-11-25"})
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "session not found") {
		t.Errorf("a request in the ended session: %s %s", res.Status, body)
	}
}

// The proxy ending (an interrupt) ends every session's calls and servers.
func TestListenEndingEndsEverySession(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	id := r.rawSession()
	r.postInFlight(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
		map[string]string{sessionHeader: id, "Mcp-Protocol-Version": "2025-11-25"})
	wait.Until(t, "slow to reach the server", func() bool { return r.executions("slow") == 1 })
	pid := r.upstreamPID()
	r.stop()
	if err := wait.Recv(t, "the listener to end", r.served); err != nil {
		t.Errorf("Serve: %v", err)
	}
	r.served <- nil
	if processRunning(pid) {
		t.Errorf("the server outlived the proxy")
	}
	if o := r.logged(); len(o) != 1 || o[0].Status != client.StatusCancelled {
		t.Errorf("logged %+v", o)
	}
}
