package proxy

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/fixture"
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
