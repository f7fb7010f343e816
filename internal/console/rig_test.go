package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/proxy"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A proxy runs in the test process in front of the demo server, serving a
// go-sdk host over pipes, with a Hub; consoles are Watchers (or raw
// connections) over the real socket. A proxy that is killed is this test
// binary, started again as a child (TestMain).

const childEnv = "MCPSH_CONSOLE_TEST_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		h, err := Start(HubOptions{Dir: dir, Server: Server{Name: "child", Transport: "stdio"}})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("ready", h.Info().ID)
		select {} // until killed
	}
	if os.Getenv(dialerEnv) != "" {
		os.Exit(dialAsAnother())
	}
	os.Exit(m.Run())
}

// dialerEnv makes the test binary a process of another user's that
// connects to a proxy's socket and says what it read.
const dialerEnv = "MCPSH_CONSOLE_TEST_DIAL"

func dialAsAnother() int {
	c, err := net.Dial("unix", os.Getenv(dialerEnv))
	if err != nil {
		fmt.Println("dial:", err)
		return 1
	}
	fmt.Fprintln(c, `{"type":"hello","version":1}`)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	fmt.Printf("read %q %v\n", line, err)
	return 0
}

// shortDir is a proxies' folder whose sockets' paths stay short.
func shortDir(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "mc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return filepath.Join(d, "proxies")
}

// rig is a proxy with its Hub, in front of the demo, and its host.
type rig struct {
	t    *testing.T
	dir  string
	hub  *Hub
	demo *demo.Server
	host *mcp.ClientSession
	// asked counts the host's user being asked (elicitation).
	mu    sync.Mutex
	asked int
	warns []string
}

type rigOpts struct {
	// hostAnswers, when set, is what the host's user answers mcpsh's form
	// ("run", "refuse"); empty: the host declares no elicitation.
	hostAnswers     string
	approvalTimeout time.Duration
	queueLimit      int
	// tokenLink serves the token link (Windows's) rather than this
	// system's.
	tokenLink bool
}

func newRig(t *testing.T, o rigOpts) *rig {
	t.Helper()
	r := &rig{t: t, dir: shortDir(t), demo: demo.New()}
	warn := func(s string) { r.mu.Lock(); r.warns = append(r.warns, s); r.mu.Unlock() }
	hub, err := Start(HubOptions{Dir: r.dir, Server: Server{Name: "demo", Transport: "in-process"}, Mcpsh: "test", QueueLimit: o.queueLimit, Warn: warn, tokenLink: o.tokenLink})
	if err != nil {
		t.Fatal(err)
	}
	r.hub = hub
	if o.approvalTimeout == 0 {
		o.approvalTimeout = time.Minute
	}
	p := proxy.New(proxy.Options{
		Target:          client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: r.demo.MCP(), Trust: policy.Trusted},
		Console:         hub,
		Observe:         hub.Observe,
		ApprovalTimeout: o.approvalTimeout,
		Version:         "test",
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { served <- p.Serve(ctx, inR, outW); outW.Close() }()
	var copts *mcp.ClientOptions
	if o.hostAnswers != "" {
		copts = &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			r.mu.Lock()
			r.asked++
			r.mu.Unlock()
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": o.hostAnswers}}, nil
		}}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "rig-host", Version: "3.1"}, copts)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	r.host = cs
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		outR.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			cancel()
			<-served
		}
		cancel()
		hub.Close()
	})
	return r
}

func (r *rig) hostAsked() int { r.mu.Lock(); defer r.mu.Unlock(); return r.asked }

// call makes a call as the agent, in the background.
func (r *rig) call(tool string, args map[string]any) <-chan *mcp.CallToolResult {
	ch := make(chan *mcp.CallToolResult, 1)
	go func() {
		if args == nil {
			args = map[string]any{}
		}
		res, err := r.host.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "protocol error: " + err.Error()}}}
		}
		ch <- res
	}()
	return ch
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// watch starts a Watcher on the rig's folder.
func (r *rig) watch() *Watcher {
	r.t.Helper()
	w, err := Watch(context.Background(), r.dir, WatchOptions{Poll: 20 * time.Millisecond})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(w.Close)
	return w
}

// next waits for the first event of w's that matches, failing the test
// rather than hanging.
func next(t *testing.T, w *Watcher, what string, match func(Event) bool) Event {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case e, ok := <-w.Events():
			if !ok {
				t.Fatalf("the watcher closed waiting for %s", what)
			}
			if match(e) {
				return e
			}
		case <-timeout:
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

func kind(k string) func(Event) bool { return func(e Event) bool { return e.Kind == k } }

// attached waits for w to be attached: the proxy appears to it once the
// proxy answered its hello, and from then on asks it first.
func (r *rig) attached(w *Watcher) Event {
	r.t.Helper()
	return next(r.t, w, "the proxy to appear", kind(ProxyAppeared))
}
