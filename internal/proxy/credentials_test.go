package proxy

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Credentials mcpsh holds for the upstream stay in mcpsh: whatever the
// server sends the host passes through the redaction of what the target
// knows, in every part a header's value can be echoed.

// overHTTP makes the rig's upstream the fixture playing scenario over
// streamable HTTP, in this process, each request carrying headers.
func overHTTP(t *testing.T, scenario string, headers map[string]string) setup {
	t.Helper()
	sc, err := fixture.Lookup(scenario)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer((&fixture.Server{Scenario: sc, StateDir: t.TempDir(), Stderr: io.Discard}).Handler(fixture.HTTPOptions{}))
	t.Cleanup(ts.Close)
	return func(o *Options) {
		o.Target = client.Target{Name: o.Target.Name, Kind: client.KindHTTP, URL: ts.URL, Headers: headers, Trust: o.Target.Trust}
	}
}

// A server that echoes the credential of its Authorization header without
// the scheme (the bare bearer token, a Basic blob, the password inside it)
// hands the host none of them.
func TestTheServersEchoOfAnAuthorizationCredentialIsRedacted(t *testing.T) {
	const basic = "Basic YWxpY2U6cGE1NS13MHJkIQ==" // alice:pa55-w0rd!
	for _, tt := range []struct{ header, echoed string }{
		{"Bearer tok-s3cret-value-123", "tok-s3cret-value-123"},
		{"token ghp_0123456789abcdef", "ghp_0123456789abcdef"},
		{basic, "YWxpY2U6cGE1NS13MHJkIQ=="},
		{basic, "pa55-w0rd!"},
	} {
		t.Run(tt.echoed, func(t *testing.T) {
			t.Setenv("MCPSH_FIXTURE_SECRET", tt.echoed) // the fixture serves in this process
			r := newRig(t, "proxy", overHTTP(t, "proxy", map[string]string{"Authorization": tt.header}))
			h := r.rawHost()
			h.initialize("2025-11-25", `{}`)
			h.call("logging/setLevel", `{"level":"debug"}`)
			res, e := h.call("tools/call", `{"name":"leak","arguments":{}}`)
			if e != nil {
				t.Fatal(string(e))
			}
			all := strings.Join(h.lines, "\n")
			if strings.Contains(all, tt.echoed) || strings.Count(string(res), "[redacted]") != 3 {
				t.Fatalf("the host got: %s", all)
			}
		})
	}
}

// A server that quotes the credential mcpsh holds for it in its handshake
// (instructions, name, version) or in its own requests (a form's message
// and schema, the page a request for input sends the user to, a sampling
// request's every part) hands the host none of it.
func TestTheServersHandshakeAndRequestsReachTheHostWithoutCredentials(t *testing.T) {
	t.Parallel()
	const secret = "tok-5e1f0a77c3"
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "proxy", func(o *Options) {
				o.Target.Env["MCPSH_FIXTURE_SECRET"] = secret
				o.Target.Secrets = []string{secret}
			})
			var mu sync.Mutex
			var got []string // what the host was sent, as JSON
			keep := func(v any) {
				b, _ := json.Marshal(v)
				mu.Lock()
				got = append(got, string(b))
				mu.Unlock()
			}
			cs := r.goHost(v.version, &mcp.ClientOptions{
				Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}},
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					keep(req.Params)
					return &mcp.ElicitResult{Action: "decline"}, nil
				},
				//lint:ignore SA1019 servers still sample through the deprecation window, and the proxy passes it on
				CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					keep(req.Params)
					//lint:ignore SA1019 as above
					return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "ok"}, Model: "m", Role: "assistant"}, nil
				},
			})
			keep(cs.InitializeResult())
			// Each call's request to the host, then its result.
			calls := 0
			for _, args := range []map[string]any{{"leak": true}, {"leak": "url"}} {
				keep(callTool(t, cs, "ask", args))
				calls++
			}
			if v.version != "" { // sampling is passed on below 2026-07-28 only
				keep(callTool(t, cs, "sample", map[string]any{"leak": true}))
				calls++
			}
			mu.Lock()
			defer mu.Unlock()
			all := strings.Join(got, "\n")
			if strings.Contains(all, secret) || len(got) != 1+2*calls || !strings.Contains(got[0], "[redacted]") {
				t.Fatalf("the host got:\n%s", all)
			}
		})
	}
}
