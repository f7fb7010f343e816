//lint:file-ignore SA1019 SEP-2577 deprecates roots and logging; these tests hold what mcpsh passes on through the deprecation window

package client

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a proxy passes on through a session: its host's arguments as sent,
// its host's _meta, the server's result as sent, the server's log data,
// the host's roots.

// seen is what an echo server's tool received.
type seen struct {
	mu   sync.Mutex
	args []json.RawMessage
	meta []mcp.Meta
}

func echoServer(t *testing.T, s *seen) *mcp.Server {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.mu.Lock()
			s.args = append(s.args, append(json.RawMessage(nil), req.Params.Arguments...))
			s.meta = append(s.meta, req.Params.Meta)
			s.mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	return srv
}

func TestRawArgsReachTheServerAsSent(t *testing.T) {
	t.Parallel()
	var got seen
	s, err := Connect(context.Background(), Target{Name: "echo", Kind: KindInProcess, InProcess: echoServer(t, &got), Trust: policy.Trusted}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	// 2^53+1 becomes 2^53 through a float64; the exponent and the escape
	// would be rewritten by a decode and encode.
	raw := json.RawMessage(`{"big": 9007199254740993, "f": 1E+2, "s": "\u00e9"}`)
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		t.Fatal(err)
	}
	meta := map[string]json.RawMessage{"vendor.example/trace": json.RawMessage(`{"id":"t-1"}`),
		"progressToken": json.RawMessage(`"host-token"`), "io.modelcontextprotocol/clientInfo": json.RawMessage(`{"name":"forged"}`)}
	o, err := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "echo"), Args: args, RawArgs: raw, Meta: meta, Mode: policy.Batch})
	if err != nil || o.Status != StatusOK {
		t.Fatalf("%v %s %s", err, o.Status, o.Error)
	}
	var want bytes.Buffer
	_ = json.Compact(&want, raw)
	if len(got.args) != 1 || string(got.args[0]) != want.String() {
		t.Fatalf("the server got %s; want %s", got.args, want.String())
	}
	m := got.meta[0]
	if tr, _ := json.Marshal(m["vendor.example/trace"]); string(tr) != `{"id":"t-1"}` {
		t.Errorf("the host's _meta member reached the server as %s", tr)
	}
	if tok, _ := m["progressToken"].(string); !strings.HasPrefix(tok, "mcpsh-") {
		t.Errorf("progressToken %v: the host's token must not replace mcpsh's", m["progressToken"])
	}
	// At 2026-07-28 go-sdk writes this hop's own clientInfo; the host's
	// must not stand in for it.
	if ci, _ := json.Marshal(m["io.modelcontextprotocol/clientInfo"]); strings.Contains(string(ci), "forged") {
		t.Errorf("a protocol member of the host's hop went on: %v", m)
	}
	// Result.Raw is the server's answer as it came.
	if !json.Valid(o.Result.Raw) || !bytes.Contains(o.Result.Raw, []byte(`9007199254740993`)) {
		t.Errorf("Result.Raw = %s", o.Result.Raw)
	}
}

func TestLogDataComesRawWithKnownSecretsTakenOut(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "proxy")
	target.Env["MCPSH_FIXTURE_SECRET"] = "s3cr3t-value-42"
	target.Secrets = []string{"s3cr3t-value-42"}
	events := make(chan Event, 64)
	s := connectFixture(t, target, &Options{OnEvent: func(e Event) {
		if e.Kind == EventLog {
			events <- e
		}
	}})
	for _, name := range []string{"say", "leak"} {
		o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, name), Mode: policy.Batch})
		if o.Status != StatusOK {
			t.Fatalf("%s: %s %s", name, o.Status, o.Error)
		}
		e := <-events
		switch name {
		case "say":
			if string(e.Data) != `{"n":1,"said":"hello"}` {
				t.Errorf("say's data: %s", e.Data)
			}
		case "leak":
			// The fixture spells the secret with \u escapes: a search for
			// its bytes alone would miss it.
			if !strings.Contains(string(e.Data), "[redacted]") || strings.Contains(string(e.Data), `\u0073`) {
				t.Errorf("leak's data still holds the secret: %s", e.Data)
			}
		}
	}
}

func TestRedactJSONFindsSecretsHowEverSpelled(t *testing.T) {
	t.Parallel()
	tg := Target{Secrets: []string{"tok-123456"}}
	cases := map[string]string{
		`{"a":"tok-123456"}`:                          `{"a":"[redacted]"}`,
		`{"a":"x tok-123456 y","b":[1,"tok-123456"]}`: `{"a":"x [redacted] y","b":[1,"[redacted]"]}`,
		`{"a":"\u0074ok-123456"}`:                     `{"a":"[redacted]"}`,
		`{"tok-123456":1}`:                            `{"[redacted]":1}`,
		`{"a":"<tok-123456>\n"}`:                      `{"a":"<[redacted]>\n"}`,
	}
	for in, want := range cases {
		got, changed := tg.RedactJSON(json.RawMessage(in))
		if string(got) != want || !changed || !json.Valid(got) {
			t.Errorf("RedactJSON(%s) = %s, %v; want %s", in, got, changed, want)
		}
	}
	for _, in := range []string{`{"a":"nothing \n here"}`, `{"a":1234567890}`, `[]`} {
		got, changed := tg.RedactJSON(json.RawMessage(in))
		if changed || string(got) != in {
			t.Errorf("RedactJSON(%s) changed it to %s", in, got)
		}
	}
	if got, changed := (Target{}).RedactJSON(json.RawMessage(`{"a":"tok-123456"}`)); changed || string(got) != `{"a":"tok-123456"}` {
		t.Errorf("a target with no secrets changed %s", got)
	}
}

func TestSetRootsTellsTheServer(t *testing.T) {
	t.Parallel()
	changed := make(chan struct{}, 4)
	srv := mcp.NewServer(&mcp.Implementation{Name: "roots", Version: "1"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) { changed <- struct{}{} },
	})
	s, err := Connect(context.Background(), Target{Kind: KindInProcess, InProcess: srv}, &Options{OfferRoots: true, ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ss *mcp.ServerSession
	for x := range srv.Sessions() {
		ss = x
	}
	if caps := ss.InitializeParams().Capabilities; caps.RootsV2 == nil || !caps.RootsV2.ListChanged {
		t.Fatalf("roots not declared with listChanged: %+v", caps)
	}
	s.SetRoots([]Root{{URI: "file:///work", Name: "work"}})
	<-changed
	res, err := ss.ListRoots(context.Background(), nil)
	if err != nil || len(res.Roots) != 1 || res.Roots[0].URI != "file:///work" {
		t.Fatalf("roots after SetRoots: %+v %v", res, err)
	}
	s.SetRoots(nil)
	<-changed
	if res, _ := ss.ListRoots(context.Background(), nil); len(res.Roots) != 0 {
		t.Fatalf("roots after SetRoots(nil): %+v", res.Roots)
	}
}
