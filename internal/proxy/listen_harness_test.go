package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
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

// httpRig is a proxy serving hosts over streamable HTTP on a loopback
// port, in front of the fixture (a process for each host session).
type httpRig struct {
	t     *testing.T
	state string
	l     *Listener
	p     *Proxy
	url   string
	port  string
	token string
	// served is Serve's answer once stop has ended it.
	served chan error
	stop   context.CancelFunc

	mu       sync.Mutex
	outcomes []*client.Outcome
}

// newHTTPRig serves on 127.0.0.1:0 with the token on, unless lo says
// otherwise.
func newHTTPRig(t *testing.T, scenario string, lo ListenOptions, setups ...setup) *httpRig {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := &httpRig{t: t, state: t.TempDir(), served: make(chan error, 1)}
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
		Warn:            func(string) {},
	}
	for _, s := range setups {
		s(&o)
	}
	if lo.Addr == "" {
		lo.Addr = "127.0.0.1:0"
	}
	if lo.TokenDir == "" {
		lo.TokenDir = t.TempDir() + "/proxy"
	}
	r.p = New(o)
	r.l, err = r.p.Listen(lo)
	if err != nil {
		t.Fatal(err)
	}
	r.url = r.l.URL()
	r.port = r.l.port
	if f := r.l.TokenFile(); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r.token = string(b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.stop = cancel
	go func() { r.served <- r.l.Serve(ctx) }()
	t.Cleanup(r.close)
	return r
}

func (r *httpRig) close() {
	r.stop()
	select {
	case err := <-r.served:
		r.served <- err
	case <-time.After(20 * time.Second):
		r.t.Error("the listener did not end")
	}
}

func (r *httpRig) executions(tool string) int { return fixture.CountIn(r.state, "executions", tool) }

func (r *httpRig) logged() []*client.Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*client.Outcome(nil), r.outcomes...)
}

// bearer adds the token to each request a go-sdk host makes, and keeps
// every answer's body as it came: each byte as the host reads it, so what
// the host has acted on is here already (an event stream's body ends
// after the host has its answer).
type bearer struct {
	token  string
	mu     sync.Mutex
	bodies []*bytes.Buffer
}

func (b *bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost {
		return res, err
	}
	tb := &teeBody{ReadCloser: res.Body, b: b, buf: &bytes.Buffer{}}
	b.mu.Lock()
	b.bodies = append(b.bodies, tb.buf)
	b.mu.Unlock()
	res.Body = tb
	return res, nil
}

type teeBody struct {
	io.ReadCloser
	b   *bearer
	buf *bytes.Buffer
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.b.mu.Lock()
	t.buf.Write(p[:n])
	t.b.mu.Unlock()
	return n, err
}

// result is the raw result, among the answers read, that has member.
func (b *bearer) result(member string) json.RawMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, body := range b.bodies {
		for _, m := range sseMessages(body.String()) {
			var res map[string]json.RawMessage
			if json.Unmarshal(m["result"], &res) == nil && res[member] != nil {
				return m["result"]
			}
		}
	}
	return nil
}

// goHost connects a go-sdk client over streamable HTTP as the host;
// version "" takes go-sdk's default.
func (r *httpRig) goHost(name, version string, opts *mcp.ClientOptions) (*mcp.ClientSession, *bearer) {
	r.t.Helper()
	b := &bearer{token: r.token}
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "9.1"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: r.url, HTTPClient: &http.Client{Transport: b}, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { cs.Close() })
	return cs, b
}

// sseMessages are the JSON-RPC messages of an answer's body: an event
// stream's data lines, or one JSON object.
func sseMessages(body string) []map[string]json.RawMessage {
	var out []map[string]json.RawMessage
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(body), &m) == nil {
		return append(out, m)
	}
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var m map[string]json.RawMessage
			if json.Unmarshal([]byte(data), &m) == nil {
				out = append(out, m)
			}
		}
	}
	return out
}

// rawPost is one POST as a host (or a web page) would write it: the
// token, a good Host and no Origin unless hdr says otherwise ("" removes
// a header).
func (r *httpRig) rawPost(ctx context.Context, body string, hdr map[string]string) (*http.Response, string) {
	r.t.Helper()
	res, text, err := r.post(ctx, body, hdr)
	if err != nil {
		r.t.Fatal(err)
	}
	return res, text
}

// postInFlight sends a call that the test ends before it is answered, from
// a goroutine of its own: what becomes of it is the test's to check, so it
// says nothing (a goroutine may not end the test).
func (r *httpRig) postInFlight(body string, hdr map[string]string) {
	go r.post(context.Background(), body, hdr)
}

// post is rawPost's request, with its error returned.
func (r *httpRig) post(ctx context.Context, body string, hdr map[string]string) (*http.Response, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, strings.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b), nil
}

const rawInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-host","version":"0.1"}}}`

// rawSession makes a session with a raw initialize and returns its ID.
func (r *httpRig) rawSession() string {
	r.t.Helper()
	res, body := r.rawPost(context.Background(), rawInitialize, nil)
	if res.StatusCode != http.StatusOK || res.Header.Get(sessionHeader) == "" {
		r.t.Fatalf("initialize: %s %s", res.Status, body)
	}
	id := res.Header.Get(sessionHeader)
	res, body = r.rawPost(context.Background(), `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{sessionHeader: id, "Mcp-Protocol-Version": "2025-11-25"})
	if res.StatusCode != http.StatusAccepted {
		r.t.Fatalf("initialized: %s %s", res.Status, body)
	}
	return id
}
