package client

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerServer is a stateless go-sdk streamable HTTP server, which speaks
// 2026-07-28 and refuses a tools/call whose Mcp-Param-* headers are missing
// or do not match the arguments. It records the headers of each tools/call
// and, to play a hostile server, rewrites its tools/list answers.
type headerServer struct {
	mu      sync.Mutex
	headers map[string]http.Header // by tool name
	rewrite func([]byte) []byte
}

func (h *headerServer) start(t *testing.T, srv *mcp.Server) string {
	t.Helper()
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &m)
		if m.Method == "tools/call" {
			h.mu.Lock()
			h.headers[m.Params.Name] = r.Header.Clone()
			h.mu.Unlock()
		}
		if m.Method != "tools/list" || h.rewrite == nil {
			inner.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		out := h.rewrite(rec.Body.Bytes())
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(out)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func (h *headerServer) sent(name string) http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.headers[name]
}

func paramNames(h http.Header) []string {
	var out []string
	for k := range h {
		if strings.HasPrefix(k, "Mcp-Param-") {
			out = append(out, k)
		}
	}
	return out
}

func echoTool(srv *mcp.Server, name string, schema map[string]any) {
	srv.AddTool(&mcp.Tool{Name: name, InputSchema: schema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(r.Params.Arguments)}}}, nil
		})
}

func TestParamHeadersReachAServerThatChecksThem(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
	echoTool(srv, "deploy", map[string]any{"type": "object", "properties": map[string]any{
		"region":  map[string]any{"type": "string", "x-mcp-header": "Region"},
		"dry":     map[string]any{"type": "boolean", "x-mcp-header": "Dry"},
		"replica": map[string]any{"type": "integer", "x-mcp-header": "Replicas"},
		"target": map[string]any{"type": "object", "properties": map[string]any{
			"zone": map[string]any{"type": "string", "x-mcp-header": "Zone"},
		}},
		"note": map[string]any{"type": "string"},
	}})
	hs := &headerServer{headers: map[string]http.Header{}}
	s := connectFixture(t, httpTarget(hs.start(t, srv)), nil)
	args := map[string]any{"region": "eu-west", "dry": true, "replica": 3,
		"target": map[string]any{"zone": "zürich \r\nX-Injected: 1"}, "note": "not a header"}
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "deploy"), Args: args, Mode: policy.Batch, Attempts: 1})
	if o.Protocol != "2026-07-28" {
		t.Fatalf("protocol %q: the server no longer speaks the version with Mcp-Param headers", o.Protocol)
	}
	if o.Status != StatusOK {
		t.Fatalf("deploy: %s (%s)", o.Status, o.Error)
	}
	h := hs.sent("deploy")
	want := map[string]string{"Mcp-Param-Region": "eu-west", "Mcp-Param-Dry": "true", "Mcp-Param-Replicas": "3",
		"Mcp-Param-Zone": "=?base64?esO8cmljaCANClgtSW5qZWN0ZWQ6IDE=?="}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if n := len(paramNames(h)); n != len(want) || h.Get("X-Injected") != "" {
		t.Errorf("param headers %v, X-Injected %q", paramNames(h), h.Get("X-Injected"))
	}
}

func TestHostileParamHeaderNamesAreNotSent(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1"}, nil)
	// The server's own definitions carry placeholders; the listing mcpsh sees
	// has them turned into annotations go-sdk would refuse.
	echoTool(srv, "inject", map[string]any{"type": "object", "properties": map[string]any{
		"region": map[string]any{"type": "string", "x-placeholder": "INJECT"}}})
	echoTool(srv, "mixed", map[string]any{"type": "object", "properties": map[string]any{
		"zone":   map[string]any{"type": "string", "x-placeholder": "ZONE"},
		"region": map[string]any{"type": "string", "x-placeholder": "SPACE"}}})
	echoTool(srv, "blob", map[string]any{"type": "object", "properties": map[string]any{
		"blob": map[string]any{"x-placeholder": "BLOB"}}})
	hs := &headerServer{headers: map[string]http.Header{}, rewrite: func(b []byte) []byte {
		r := strings.NewReplacer(
			`"x-placeholder":"INJECT"`, `"x-mcp-header":"Region\r\nX-Injected: 1"`,
			`"x-placeholder":"ZONE"`, `"x-mcp-header":"Zone"`,
			`"x-placeholder":"SPACE"`, `"x-mcp-header":"Bad Name"`,
			`"x-placeholder":"BLOB"`, `"type":"object","x-mcp-header":"Blob"`)
		return []byte(r.Replace(string(b)))
	}}
	s := connectFixture(t, httpTarget(hs.start(t, srv)), nil)
	if page, _ := s.ToolPage(""); bytes.Contains(page, []byte("x-placeholder")) {
		t.Fatalf("the listing was not rewritten: %s", page)
	}
	// Such a tool is left out of the listing (SEP-2243), so no call of it,
	// and no header named by it, can be sent.
	for _, name := range []string{"inject", "mixed", "blob"} {
		if _, ok := s.Tool(name); ok {
			t.Errorf("%s: listed", name)
		}
	}
}

func TestParamHeaderValues(t *testing.T) {
	t.Parallel()
	schema := `{"type":"object","properties":{"s":{"type":"string","x-mcp-header":"S"},
		"n":{"type":"integer","x-mcp-header":"N"},"b":{"type":"boolean","x-mcp-header":"B"}}}`
	tool := &Tool{Name: "t", InputSchema: json.RawMessage(schema)}
	for _, c := range []struct {
		args string
		want map[string]string
	}{
		{`{"s":"plain","n":42,"b":false}`, map[string]string{"Mcp-Param-S": "plain", "Mcp-Param-N": "42", "Mcp-Param-B": "false"}},
		{`{"s":" lead"}`, map[string]string{"Mcp-Param-S": "=?base64?IGxlYWQ=?="}},
		{`{"s":"=?base64?eA==?="}`, map[string]string{"Mcp-Param-S": "=?base64?PT9iYXNlNjQ/ZUE9PT89?="}},
		{`{"s":""}`, map[string]string{"Mcp-Param-S": ""}},
		{`{"n":-9007199254740991}`, map[string]string{"Mcp-Param-N": "-9007199254740991"}},
		{`{"n":9007199254740992}`, map[string]string{}},
		{`{"n":1.5,"s":null,"b":"true"}`, map[string]string{"Mcp-Param-B": "true"}},
		{`{"s":["x"],"n":{"v":1}}`, map[string]string{}},
	} {
		got := paramHeaders(tool, json.RawMessage(`{"name":"t","arguments":`+c.args+`}`))
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.args, got, c.want)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", c.args, k, got[k], v)
			}
		}
	}
	if got := paramHeaders(tool, json.RawMessage(`{"name":"other","arguments":{"s":"x"}}`)); len(got) != 0 {
		t.Errorf("another tool's call got %v", got)
	}
	for _, bad := range []string{
		`{"properties":{"s":{"type":"string","x-mcp-header":"S"},"t":{"type":"string","x-mcp-header":"s"}}}`,
		`{"properties":{"s":{"type":"string","x-mcp-header":"S"},"t":{"type":"number","x-mcp-header":"T"}}}`,
		`{"properties":{"s":{"type":"string","x-mcp-header":"S"},"t":{"type":"string","x-mcp-header":""}}}`,
		`{"properties":{"s":{"type":"string","x-mcp-header":"S"},"t":{"type":"string","x-mcp-header":7}}}`,
		`{"properties":{"s":{"type":"string","x-mcp-header":"S:"}}}`,
		`{"properties":{"s":{"type":["string"],"x-mcp-header":"S"}}}`,
	} {
		bt := &Tool{Name: "t", InputSchema: json.RawMessage(bad)}
		if got := paramHeaders(bt, json.RawMessage(`{"name":"t","arguments":{"s":"x","t":"y"}}`)); len(got) != 0 {
			t.Errorf("%s: sent %v", bad, got)
		}
	}
}
