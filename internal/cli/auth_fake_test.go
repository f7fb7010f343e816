package cli

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeOAuth is client/oauth_fake_test.go's fake, for the commands' tests: an
// authorization server and an MCP server that trusts it, each
// on its own 127.0.0.1 origin: protected-resource and authorization-server
// metadata, dynamic registration, an authorize endpoint that sends the browser
// straight back with a code, and a token endpoint with PKCE, refresh tokens
// and client credentials. It notes what reached it, for the tests to check.
type fakeOAuth struct {
	t      *testing.T
	AS, RS *httptest.Server

	mu sync.Mutex
	// Set before use.
	ScopesSupported []string // the resource's scopes_supported
	CallScope       string   // a scope tools/call needs beyond the token's (step-up)
	ClientSecret    string   // a pre-registered client's secret ("pre" is its ID)
	ExpiresIn       int      // for new access tokens; 3600 when 0
	RefreshFails    string   // the token endpoint answers a refresh with this body and 500

	// Seen.
	ASHeaders     []http.Header
	Registrations []map[string]any
	Authorizes    []url.Values
	TokenForms    []url.Values
	BearerSeen    []string // Authorization headers the MCP server got
	Calls         int
	Issued        []string // every token and client secret handed out

	n       int
	codes   map[string]url.Values // code → the authorize request
	access  map[string][]string   // access token → scopes
	refresh map[string][]string   // refresh token → scopes
}

func newFakeOAuth(t *testing.T) *fakeOAuth {
	f := &fakeOAuth{t: t, codes: map[string]url.Values{}, access: map[string][]string{}, refresh: map[string][]string{}}
	f.AS = httptest.NewServer(http.HandlerFunc(f.serveAS))
	t.Cleanup(f.AS.Close)

	srv := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			f.mu.Lock()
			f.Calls++
			f.mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you are in"}}}, nil, nil
		})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		meta := map[string]any{"resource": f.RS.URL + "/mcp", "authorization_servers": []string{f.AS.URL}}
		if f.ScopesSupported != nil {
			meta["scopes_supported"] = f.ScopesSupported
		}
		fakeJSON(w, http.StatusOK, meta)
	})
	mux.Handle("/mcp", f.guard(mcpHandler))
	mux.Handle("/open", mcpHandler) // a server that asks for no login
	f.RS = httptest.NewServer(mux)
	t.Cleanup(f.RS.Close)
	return f
}

// URL is the MCP endpoint.
func (f *fakeOAuth) URL() string { return f.RS.URL + "/mcp" }

// guard lets through requests with a token the server issued; tools/call also
// needs CallScope when it is set.
func (f *fakeOAuth) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		f.mu.Lock()
		f.BearerSeen = append(f.BearerSeen, h)
		scopes, ok := f.access[strings.TrimPrefix(h, "Bearer ")]
		need := f.CallScope
		f.mu.Unlock()
		meta := fmt.Sprintf(`resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, f.RS.URL)
		if !strings.HasPrefix(h, "Bearer ") || !ok {
			w.Header().Set("WWW-Authenticate", "Bearer "+meta)
			http.Error(w, "no valid token", http.StatusUnauthorized)
			return
		}
		if need != "" && !slices.Contains(scopes, need) && isToolCall(r) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", %s`, need, meta))
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isToolCall peeks at a POST body for tools/call, and puts the body back.
func isToolCall(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	r.Body = readCloser{strings.NewReader(b.String())}
	return strings.Contains(b.String(), `"tools/call"`)
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

func fakeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (f *fakeOAuth) serveAS(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ASHeaders = append(f.ASHeaders, r.Header.Clone())
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		fakeJSON(w, http.StatusOK, map[string]any{
			"issuer": f.AS.URL, "authorization_endpoint": f.AS.URL + "/authorize", "token_endpoint": f.AS.URL + "/token",
			"registration_endpoint": f.AS.URL + "/register", "response_types_supported": []string{"code"},
			"grant_types_supported":                 []string{"authorization_code", "refresh_token", "client_credentials"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none", "client_secret_basic"},
		})
	case "/register":
		var m map[string]any
		json.NewDecoder(r.Body).Decode(&m)
		f.Registrations = append(f.Registrations, m)
		f.n++
		fakeJSON(w, http.StatusCreated, map[string]any{"client_id": fmt.Sprintf("dyn-%d", f.n), "redirect_uris": m["redirect_uris"], "token_endpoint_auth_method": "none"})
	case "/authorize":
		q := r.URL.Query()
		f.Authorizes = append(f.Authorizes, q)
		f.n++
		code := fmt.Sprintf("code-%d", f.n)
		f.codes[code] = q
		back, _ := url.Parse(q.Get("redirect_uri"))
		bq := back.Query()
		bq.Set("code", code)
		bq.Set("state", q.Get("state"))
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case "/token":
		r.ParseForm()
		form := r.PostForm
		f.TokenForms = append(f.TokenForms, form)
		f.token(w, r, form)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeOAuth) token(w http.ResponseWriter, r *http.Request, form url.Values) {
	var scopes []string
	switch form.Get("grant_type") {
	case "authorization_code":
		req, ok := f.codes[form.Get("code")]
		delete(f.codes, form.Get("code"))
		sum := sha256.Sum256([]byte(form.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != req.Get("code_challenge") || form.Get("redirect_uri") != req.Get("redirect_uri") {
			fakeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		if id, secret, _ := r.BasicAuth(); req.Get("client_id") == "pre" && (id != "pre" || secret != f.ClientSecret) {
			fakeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
			return
		}
		scopes = strings.Fields(req.Get("scope"))
	case "refresh_token":
		if f.RefreshFails != "" {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, f.RefreshFails)
			return
		}
		var ok bool
		if scopes, ok = f.refresh[form.Get("refresh_token")]; !ok {
			fakeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(f.refresh, form.Get("refresh_token")) // rotated
	case "client_credentials":
		if id, secret, _ := r.BasicAuth(); id != "svc" || secret != f.ClientSecret {
			fakeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
			return
		}
		scopes = strings.Fields(form.Get("scope"))
	default:
		fakeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	f.n++
	at, rt := fmt.Sprintf("at-%d-Zq8xW2", f.n), fmt.Sprintf("rt-%d-Kp4vN7", f.n)
	f.access[at] = scopes
	f.Issued = append(f.Issued, at, rt)
	resp := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": 3600, "scope": strings.Join(scopes, " ")}
	if f.ExpiresIn != 0 {
		resp["expires_in"] = f.ExpiresIn
	}
	if form.Get("grant_type") != "client_credentials" {
		f.refresh[rt] = scopes
		resp["refresh_token"] = rt
	}
	fakeJSON(w, http.StatusOK, resp)
}

// fakeSeen is what the servers noted.
type fakeSeen struct {
	ASHeaders     []http.Header
	Registrations []map[string]any
	Authorizes    []url.Values
	TokenForms    []url.Values
	BearerSeen    []string
	Calls         int
	Issued        []string
}

// seen returns a copy of what the servers noted, under the lock.
func (f *fakeOAuth) seen() fakeSeen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fakeSeen{ASHeaders: slices.Clone(f.ASHeaders), Registrations: slices.Clone(f.Registrations), Authorizes: slices.Clone(f.Authorizes),
		TokenForms: slices.Clone(f.TokenForms), BearerSeen: slices.Clone(f.BearerSeen), Calls: f.Calls, Issued: slices.Clone(f.Issued)}
}
