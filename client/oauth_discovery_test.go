package client

import (
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/oauthfake"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// TestResourceMetadataIsFetchedOnlyFromTheServersOrigin: a server's 401
// names resource_metadata on another port of the same host. mcpsh never
// asks there, says so, and finds the metadata where RFC 9728 puts it, at the
// server's own well-known location, so the login still works.
func TestResourceMetadataIsFetchedOnlyFromTheServersOrigin(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	other := newRecorder(t)
	f.ResourceMetadata = other.URL + "/.well-known/oauth-protected-resource/mcp"
	var mu sync.Mutex
	var notes []string
	a := browserAuth(NewFileTokenStore(t.TempDir()))
	a.Notify = func(s string) { mu.Lock(); notes = append(notes, s); mu.Unlock() }
	s, err := connectOAuth(t, f, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	if seen := other.headers(); len(seen) != 0 {
		t.Errorf("mcpsh fetched metadata from another origin (%d requests)", len(seen))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) == 0 || !strings.Contains(notes[0], "prot names its resource metadata at "+f.ResourceMetadata+", not on its own origin") {
		t.Errorf("notes = %q", notes)
	}
}

// TestAuthorizationServerClientKeepsGoSDKsAddressGuard: go-sdk's discovery
// (oauthex) dials through a dialer that refuses private and reserved
// addresses, but only for an *http.Transport that does not dial by itself:
// one with its own DialContext (a clone of http.DefaultTransport has one)
// turns the guard off. This is the client mcpsh hands go-sdk; its redirect
// rule is authServerRedirect's (oauth_redirect_test.go).
func TestAuthorizationServerClientKeepsGoSDKsAddressGuard(t *testing.T) {
	t.Parallel()
	a := &Auth{Store: NewFileTokenStore(t.TempDir())}
	h := a.authorizerFor(Target{Kind: KindHTTP, URL: "https://mcp.example.com/mcp"}, "test")
	tr, ok := h.http.Transport.(*http.Transport)
	if !ok {
		t.Fatalf("the transport is a %T: go-sdk would use it as it is, unguarded", h.http.Transport)
	}
	//lint:ignore SA1019 a deprecated dialer set would turn the guard off as well
	if tr.DialContext != nil || tr.DialTLSContext != nil || tr.Dial != nil || tr.DialTLS != nil {
		t.Error("the transport dials by itself, which turns go-sdk's address guard off")
	}
	if h.http.CheckRedirect == nil {
		t.Error("no CheckRedirect: a token request would follow a redirect anywhere, its credentials with it")
	}
}

// TestChallengesLoseOnlyMetadataElsewhere: the challenge go-sdk reads after
// mcpsh keeps its scheme, error and scope, and a resource_metadata on the
// server's origin, whatever the quoting; none that is elsewhere survives.
func TestChallengesLoseOnlyMetadataElsewhere(t *testing.T) {
	t.Parallel()
	a := &Auth{Store: NewFileTokenStore(t.TempDir())}
	h := a.authorizerFor(Target{Kind: KindHTTP, URL: "https://mcp.example.com/mcp"}, "test")
	tests := []struct {
		in   []string
		want []oauthex.Challenge
	}{
		{[]string{`Bearer error="insufficient_scope", scope="files:write a\"b", resource_metadata="https://mcp.example.com:8443/.well-known/oauth-protected-resource"`},
			[]oauthex.Challenge{{Scheme: "bearer", Params: map[string]string{"error": "insufficient_scope", "scope": `files:write a"b`}}}},
		{[]string{`Bearer resource_metadata="https://MCP.example.com:443/.well-known/oauth-protected-resource/mcp"`},
			[]oauthex.Challenge{{Scheme: "bearer", Params: map[string]string{"resource_metadata": "https://MCP.example.com:443/.well-known/oauth-protected-resource/mcp"}}}},
		{[]string{`Basic realm="x"`, `Bearer resource_metadata="http://mcp.example.com/.well-known/oauth-protected-resource"`},
			[]oauthex.Challenge{{Scheme: "basic", Params: map[string]string{"realm": "x"}}, {Scheme: "bearer"}}},
		{[]string{`Bearer scope="a\\", resource_metadata="https://evil.example/m"`},
			[]oauthex.Challenge{{Scheme: "bearer", Params: map[string]string{"scope": `a\`}}}},
	}
	for _, tt := range tests {
		resp := &http.Response{Header: http.Header{"Www-Authenticate": tt.in}}
		h.keepMetadataOnOrigin(resp)
		got, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
		if err != nil {
			t.Errorf("%q became %q, which go-sdk cannot read: %v", tt.in, resp.Header.Values("WWW-Authenticate"), err)
			continue
		}
		for i := range got {
			if got[i].Params == nil {
				got[i].Params = map[string]string{}
			}
		}
		for i := range tt.want {
			if tt.want[i].Params == nil {
				tt.want[i].Params = map[string]string{}
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q became %q, read as %v; want %v", tt.in, resp.Header.Values("WWW-Authenticate"), got, tt.want)
		}
	}
}

// FuzzChallengesKeepNoMetadataElsewhere: whatever a server's challenges
// hold, once go-sdk could read them, what go-sdk reads after mcpsh names
// no resource_metadata off the server's origin, and still reads.
func FuzzChallengesKeepNoMetadataElsewhere(f *testing.F) {
	f.Add(`Bearer resource_metadata="https://evil.example/m"`, `Basic realm="x"`)
	f.Add(`Bearer error="insufficient_scope", scope="a b", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`, ``)
	f.Add(`Bearer scope="a\\", resource_metadata="https://evil.example/m"`, `Bearer resource_metadata="http://127.0.0.1:9/m"`)
	f.Add(`Bearer scope="x\", resource_metadata=\"https://evil.example/m"`, `DPoP algs="ES256", resource_metadata="https://mcp.example.com:8443/m"`)
	a := &Auth{Store: NewFileTokenStore(f.TempDir())}
	h := a.authorizerFor(Target{Kind: KindHTTP, URL: "https://mcp.example.com/mcp"}, "test")
	f.Fuzz(func(t *testing.T, first, second string) {
		in := []string{first, second}
		if _, err := oauthex.ParseWWWAuthenticate(in); err != nil {
			return // go-sdk refuses these before fetching anything
		}
		resp := &http.Response{Header: http.Header{"Www-Authenticate": in}}
		h.keepMetadataOnOrigin(resp)
		got, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
		if err != nil {
			t.Fatalf("%q became %q, which go-sdk cannot read: %v", in, resp.Header.Values("WWW-Authenticate"), err)
		}
		for _, c := range got {
			if u, ok := c.Params["resource_metadata"]; ok && !h.onOrigin(u) {
				t.Fatalf("%q became %q, which still names %q", in, resp.Header.Values("WWW-Authenticate"), u)
			}
		}
	})
}
