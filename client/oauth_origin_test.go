package client

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/oauthfake"
	"github.com/mcpsh/mcpsh/policy"
)

// An OAuth token goes only to the origin (scheme, host and port) it was
// issued for. Go's http.Client keeps Authorization on a redirect to the same
// host name whatever the port or scheme, and to its subdomains, and names the
// page it came from in a Referer.

// recorder is an HTTP server on 127.0.0.1 that notes the headers and the
// body of every request it gets and answers 500.
type recorder struct {
	*httptest.Server
	mu     sync.Mutex
	seen   []http.Header
	bodies []string
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.seen = append(r.seen, req.Header.Clone())
		r.bodies = append(r.bodies, string(body))
		r.mu.Unlock()
		http.Error(w, "not the server you are looking for", http.StatusInternalServerError)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) headers() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header(nil), r.seen...)
}

func (r *recorder) received() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.bodies...)
}

// noCredentials fails if any request a recorder got carried a credential or
// named the page it came from.
func noCredentials(t *testing.T, r *recorder) {
	t.Helper()
	seen := r.headers()
	if len(seen) == 0 {
		t.Fatal("the redirect was not followed: the other origin got no request")
	}
	for _, h := range seen {
		for _, k := range []string{"Authorization", "Cookie", "Referer"} {
			if v := h.Get(k); v != "" {
				t.Errorf("the other origin got %s: %s", k, v)
			}
		}
	}
}

// TestOAuthTokenStaysWithItsOrigin: after a login, the MCP server answers a
// call with a 307 to another port on the same host. The call follows it, but
// neither the token nor a Referer naming the server goes with it.
func TestOAuthTokenStaysWithItsOrigin(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	other := newRecorder(t)
	s, err := connectOAuth(t, f, browserAuth(NewFileTokenStore(t.TempDir())), nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	if seen := f.Seen().BearerSeen; !strings.HasPrefix(seen[len(seen)-1], "Bearer at-") {
		t.Fatalf("the server the token is for did not get it: %q", seen)
	}
	f.SetRedirect(other.URL + "/mcp")
	ctx, cancel := context.WithTimeout(context.Background(), testBound)
	defer cancel()
	o, _ := s.Do(ctx, &Call{Tool: mustTool(t, s, "whoami"), Args: map[string]any{}, Mode: policy.Batch, Attempts: 1})
	if o.Status == StatusOK {
		t.Fatalf("the call succeeded at a server that answers only 500: %+v", o)
	}
	noCredentials(t, other)
}

// TestOAuthTokenIsNotDowngradedToPlainHTTP: a server reached over https that
// redirects to plain http on the same host gets the stored token; the plain
// http origin does not.
func TestOAuthTokenIsNotDowngradedToPlainHTTP(t *testing.T) {
	t.Parallel()
	plain := newRecorder(t)
	var mu sync.Mutex
	var bearer []string
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		bearer = append(bearer, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Redirect(w, r, plain.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer secure.Close()
	if !strings.HasPrefix(secure.URL, "https://127.0.0.1:") || !strings.HasPrefix(plain.URL, "http://127.0.0.1:") {
		t.Fatalf("want both on 127.0.0.1: %s %s", secure.URL, plain.URL)
	}

	store := NewFileTokenStore(t.TempDir())
	url := secure.URL + "/mcp"
	key, _ := CanonicalURL(url)
	if _, err := store.save(key, &storedToken{Version: 1, URL: key, AccessToken: "at-stored-Vx3Lp8", TokenType: "Bearer",
		Expiry: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testBound)
	defer cancel()
	s, err := Connect(ctx, Target{Name: "secure", Kind: KindHTTP, URL: url, Trust: policy.Trusted}, &Options{Auth: &Auth{Store: store}, httpBase: secure.Client().Transport})
	if err == nil {
		s.Close()
		t.Fatal("connected through a server that answers only 500")
	}
	mu.Lock()
	got := strings.Join(bearer, ",")
	mu.Unlock()
	if !strings.Contains(got, "Bearer at-stored-Vx3Lp8") {
		t.Fatalf("the https origin the token is for did not get it: %q", got)
	}
	noCredentials(t, plain)
}
