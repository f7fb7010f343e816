package client

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/oauthfake"
)

// noneDelivered fails if any request other got carried a header or a body:
// the credentials of a token request are in one or the other.
func noneDelivered(t *testing.T, other *recorder, secrets ...string) {
	t.Helper()
	for i, h := range other.headers() {
		if v := h.Get("Authorization"); v != "" {
			t.Errorf("the other origin got Authorization: %s", v)
		}
		if body := other.received()[i]; body != "" {
			t.Errorf("the other origin got a body: %q", body)
		}
	}
	for _, b := range other.received() {
		for _, s := range secrets {
			if strings.Contains(b, s) {
				t.Errorf("the other origin got %s…", s[:5])
			}
		}
	}
}

// TestTokenRequestsAreNotRedirectedElsewhere: the authorization server
// answers the token endpoint with a 307 to another port of the same host.
// net/http would send the refresh token (in the body), or the client secret
// (Authorization: Basic), along; mcpsh does not follow.
func TestTokenRequestsAreNotRedirectedElsewhere(t *testing.T) {
	t.Parallel()
	t.Run("refresh", func(t *testing.T) {
		f := oauthfake.New(t)
		other := newRecorder(t)
		f.TokenRedirect = other.URL + "/token"
		f.IssueRefresh("rt-seed-Lm3Qp9")
		store := NewFileTokenStore(t.TempDir())
		key, _ := CanonicalURL(f.URL())
		seed := &storedToken{Version: 1, URL: key, Grant: "authorization_code", AccessToken: "at-expired-Hw5Rt1", TokenType: "Bearer",
			RefreshToken: "rt-seed-Lm3Qp9", Expiry: time.Now().Add(-time.Hour), ClientID: "dyn-0", ClientSecret: "dyn-secret-Vb7Np3",
			TokenURL: f.AS.URL + "/token"}
		if _, err := store.save(key, seed); err != nil {
			t.Fatal(err)
		}
		if _, err := connectOAuth(t, f, &Auth{Store: store}, nil); err == nil {
			t.Fatal("connected, though the refresh was redirected away")
		}
		// oauth2 tries the client's secret in a header, then in the form.
		if forms := f.Seen().TokenForms; len(forms) == 0 || forms[0].Get("refresh_token") != "rt-seed-Lm3Qp9" {
			t.Fatalf("token requests = %v, want the refresh that was redirected", forms)
		}
		noneDelivered(t, other, "rt-seed-Lm3Qp9", "dyn-secret-Vb7Np3")
	})
	t.Run("client credentials", func(t *testing.T) {
		f := oauthfake.New(t)
		other := newRecorder(t)
		f.TokenRedirect = other.URL + "/token"
		f.ClientSecret = "svc-secret-Qw2Er5"
		a := &Auth{Store: NewFileTokenStore(t.TempDir()), Grant: GrantClientCredentials, ClientID: "svc", ClientSecret: "svc-secret-Qw2Er5"}
		_, err := connectOAuth(t, f, a, nil)
		if err == nil || !strings.Contains(err.Error(), "refused a redirect of a request carrying credentials") {
			t.Fatalf("err = %v, want the redirect refused", err)
		}
		if forms := f.Seen().TokenForms; len(forms) == 0 || forms[0].Get("grant_type") != "client_credentials" {
			t.Fatalf("token requests = %v, want the one that was redirected", forms)
		}
		noneDelivered(t, other)
	})
}

// TestDiscoveryFollowsARedirectOnItsOrigin: the authorization server's
// metadata moved to another path of the same loopback origin. go-sdk's own
// discovery check refuses every redirect into a loopback address; with
// mcpsh's CheckRedirect on the client, oauthex uses mcpsh's rule instead,
// which follows it (the server was reached on loopback to begin with), and
// the login works.
func TestDiscoveryFollowsARedirectOnItsOrigin(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.MetadataMoved = true
	s, err := connectOAuth(t, f, browserAuth(NewFileTokenStore(t.TempDir())), nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	if !slices.Contains(f.Seen().ASPaths, "/moved/.well-known/oauth-authorization-server") {
		t.Errorf("the moved metadata was never fetched: %q", f.Seen().ASPaths)
	}
}

// TestAuthServerRedirectRule: what the authorization server's client
// follows, each case on its own.
func TestAuthServerRedirectRule(t *testing.T) {
	t.Parallel()
	req := func(method, url string, header ...string) *http.Request {
		var body *strings.Reader
		if method == http.MethodPost {
			body = strings.NewReader("grant_type=refresh_token&refresh_token=rt-x")
		}
		var r *http.Request
		if body != nil {
			r, _ = http.NewRequestWithContext(context.Background(), method, url, body)
		} else {
			r, _ = http.NewRequestWithContext(context.Background(), method, url, nil)
		}
		if len(header) == 2 {
			r.Header.Set(header[0], header[1])
		}
		return r
	}
	get := func(url string) *http.Request { return req(http.MethodGet, url) }
	tests := []struct {
		name  string
		from  *http.Request
		to    string
		wrong string // "" when followed
	}{
		{"discovery moves to another public origin", get("https://as.example/.well-known/oauth-authorization-server"), "https://203.0.113.7/meta", ""},
		{"a token request on its own origin", req(http.MethodPost, "http://127.0.0.1:4001/token"), "http://127.0.0.1:4001/v2/token", ""},
		{"https to http", get("https://203.0.113.7/a"), "http://203.0.113.7/a", "security downgrade"},
		{"a body to another port", req(http.MethodPost, "http://127.0.0.1:4001/token"), "http://127.0.0.1:4002/token", "carrying credentials"},
		{"a body to another scheme", req(http.MethodPost, "https://203.0.113.7/token"), "https://203.0.113.8/token", "carrying credentials"},
		{"Authorization to another host", req(http.MethodGet, "https://203.0.113.7/a", "Authorization", "Basic c3ZjOng="), "https://203.0.113.8/a", "carrying credentials"},
		{"into loopback from a public start", get("https://203.0.113.7/a"), "https://127.0.0.1/a", "loopback address"},
		{"into loopback v6 from a public start", get("https://203.0.113.7/a"), "https://[::1]/a", "loopback address"},
		{"into a private address", get("https://203.0.113.7/a"), "https://10.0.0.8/a", "non-public address"},
		{"into the metadata address from loopback", get("http://127.0.0.1:4001/a"), "http://169.254.169.254/latest", "non-public address"},
		{"into carrier-grade NAT", get("https://203.0.113.7/a"), "https://100.64.1.1/a", "non-public address"},
	}
	for _, tt := range tests {
		to := get(tt.to)
		err := authServerRedirect(to, []*http.Request{tt.from})
		switch {
		case tt.wrong == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case tt.wrong != "" && (err == nil || !strings.Contains(err.Error(), tt.wrong)):
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.wrong)
		}
	}
	via := make([]*http.Request, maxAuthRedirects)
	for i := range via {
		via[i] = get("https://203.0.113.7/a")
	}
	if err := authServerRedirect(get("https://203.0.113.7/b"), via); err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("after %d redirects: err = %v", len(via), err)
	}
}
