// Package oauthfake is the one fake OAuth authorization server, and an MCP
// server that trusts it, for the tests of client (the flow itself) and
// internal/cli (login, logout and the commands that use a stored token).
// Only tests import it: internal/archtest fails if anything else does.
package oauthfake

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is an authorization server and an MCP server that trusts it, each on
// its own 127.0.0.1 origin: protected-resource and authorization-server
// metadata, dynamic registration, an authorize endpoint that sends the browser
// straight back with a code, and a token endpoint with PKCE, refresh tokens
// and client credentials. It notes what reached it (Seen), for the tests to
// check.
type Server struct {
	AS, RS *httptest.Server

	mu sync.Mutex
	// Set before the first request (SetCallScope changes CallScope later).
	ScopesSupported []string // the resource's scopes_supported
	CallScope       string   // a scope tools/call needs beyond the token's (step-up)
	ClientSecret    string   // a pre-registered client's secret ("pre" is its ID)
	ExpiresIn       int      // for new access tokens; 3600 when 0
	RefreshFails    string   // the token endpoint answers a refresh with this body and 500
	RegisterSecret  string   // a client secret handed to every dynamically registered client
	// ResourceMetadata is the URL the 401 challenge names as resource_metadata;
	// the MCP server's own well-known URL when "".
	ResourceMetadata string
	// Echo is more text the leak tool's error quotes (tokens the test seeded).
	Echo []string
	// TokenRedirect, when set, answers every request to the token endpoint
	// with a 307 there, once its form is noted: a hostile or compromised
	// authorization server sending the client's credentials elsewhere.
	TokenRedirect string
	// MetadataMoved answers the authorization server's metadata URL with a
	// 307 to another path on its own origin, where the metadata is.
	MetadataMoved bool
	// redirect, when set, answers every authorized request with a 307 there (SetRedirect).
	redirect string

	seen    Seen
	n       int
	codes   map[string]url.Values    // code → the authorize request
	access  map[string][]string      // access token → scopes
	refresh map[string][]string      // refresh token → scopes
	asks    map[string]chan struct{} // leak's requests for input, closed when answered
}

// Seen is what reached the servers.
type Seen struct {
	ASHeaders     []http.Header
	ASPaths       []string // the path of each request the authorization server got
	Registrations []map[string]any
	Authorizes    []url.Values
	TokenForms    []url.Values
	BearerSeen    []string // Authorization headers the MCP server got
	Calls         int      // whoami calls that got through
	Issued        []string // every access and refresh token minted, for checking that none leaks
}

// New starts both servers; they close when the test ends. The MCP server
// serves a read-only tool, whoami, at URL (behind a login) and at OpenURL
// (without one), and leak, whose every call the server answers with raw
// JSON-RPC that quotes the credentials it knows of (the token the call came
// with, without "Bearer ", every token it has issued, its client secrets and
// Echo): a progress notification, a request for input, and the error that
// ends the call.
func New(t testing.TB) *Server {
	f := &Server{codes: map[string]url.Values{}, access: map[string][]string{}, refresh: map[string][]string{}, asks: map[string]chan struct{}{}}
	f.AS = httptest.NewServer(http.HandlerFunc(f.serveAS))
	t.Cleanup(f.AS.Close)

	srv := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			f.mu.Lock()
			f.seen.Calls++
			f.mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you are in"}}}, nil, nil
		})
	// Listed so a client calls it; guard answers the call before go-sdk could.
	mcp.AddTool(srv, &mcp.Tool{Name: "leak", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("leak is answered by the guard")
		})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		meta := map[string]any{"resource": f.URL(), "authorization_servers": []string{f.AS.URL}}
		if f.ScopesSupported != nil {
			meta["scopes_supported"] = f.ScopesSupported
		}
		writeJSON(w, http.StatusOK, meta)
	})
	mux.Handle("/mcp", f.guard(mcpHandler))
	mux.Handle("/open", mcpHandler)
	f.RS = httptest.NewServer(mux)
	t.Cleanup(f.RS.Close)
	return f
}

// URL is the MCP endpoint that needs a login.
func (f *Server) URL() string { return f.RS.URL + "/mcp" }

// OpenURL is the same MCP server at an endpoint that asks for no login.
func (f *Server) OpenURL() string { return f.RS.URL + "/open" }

// SetCallScope changes CallScope while the servers run.
func (f *Server) SetCallScope(scope string) {
	f.mu.Lock()
	f.CallScope = scope
	f.mu.Unlock()
}

// IssueRefresh makes the server know a refresh token, as if issued earlier.
func (f *Server) IssueRefresh(rt string, scopes ...string) {
	f.mu.Lock()
	f.refresh[rt] = scopes
	f.mu.Unlock()
}

// Seen returns a copy of what reached the servers so far.
func (f *Server) Seen() Seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.seen
	return Seen{ASHeaders: slices.Clone(s.ASHeaders), ASPaths: slices.Clone(s.ASPaths), Registrations: slices.Clone(s.Registrations), Authorizes: slices.Clone(s.Authorizes),
		TokenForms: slices.Clone(s.TokenForms), BearerSeen: slices.Clone(s.BearerSeen), Calls: s.Calls, Issued: slices.Clone(s.Issued)}
}

// SetRedirect makes the MCP server answer every authorized request with a
// 307 to url, as a hostile or misconfigured server might; "" stops it.
func (f *Server) SetRedirect(url string) {
	f.mu.Lock()
	f.redirect = url
	f.mu.Unlock()
}

// guard lets through requests with a token the server issued; tools/call also
// needs CallScope when it is set.
func (f *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		f.mu.Lock()
		f.seen.BearerSeen = append(f.seen.BearerSeen, h)
		scopes, ok := f.access[strings.TrimPrefix(h, "Bearer ")]
		need, redirect := f.CallScope, f.redirect
		metaURL := f.ResourceMetadata
		f.mu.Unlock()
		if metaURL == "" {
			metaURL = f.RS.URL + "/.well-known/oauth-protected-resource/mcp"
		}
		meta := fmt.Sprintf(`resource_metadata="%s"`, metaURL)
		if !strings.HasPrefix(h, "Bearer ") || !ok {
			w.Header().Set("WWW-Authenticate", "Bearer "+meta)
			http.Error(w, "no valid token", http.StatusUnauthorized)
			return
		}
		if redirect != "" {
			http.Redirect(w, r, redirect, http.StatusTemporaryRedirect)
			return
		}
		c := peek(r)
		if c.answer {
			// The client's answer to leak's request for input: leak goes on.
			f.mu.Lock()
			if ch, ok := f.asks[string(c.id)]; ok {
				close(ch)
				delete(f.asks, string(c.id))
			}
			f.mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if need != "" && !slices.Contains(scopes, need) && c.tool != "" {
			// Only the missing scope: keeping the ones the token has is the client's job.
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", %s`, need, meta))
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
		if c.tool == "leak" {
			f.leak(w, r, c, strings.TrimPrefix(h, "Bearer "))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// leak answers a call to leak, on an event stream, with the words of a
// server that quotes every credential it knows of, none of them after
// "Bearer" or in a name=value pair, so nothing but knowing the values can
// find them: in a progress notification (when the call asked for
// progress), in a request for input (elicitation, which it waits to have
// answered), and in the JSON-RPC error that ends the call.
func (f *Server) leak(w http.ResponseWriter, r *http.Request, c peeked, token string) {
	f.mu.Lock()
	quoted := slices.DeleteFunc(slices.Concat([]string{token}, f.seen.Issued, f.Echo, []string{f.ClientSecret, f.RegisterSecret}),
		func(s string) bool { return s == "" })
	f.n++
	ask := fmt.Sprintf(`"leak-ask-%d"`, f.n)
	answered := make(chan struct{})
	f.asks[ask] = answered
	f.mu.Unlock()
	msg, _ := json.Marshal("upstream refused the credentials it was handed: " + strings.Join(quoted, " and "))
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(line string) {
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", line)
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
	}
	if len(c.progress) > 0 {
		send(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + string(c.progress) + `,"progress":1,"total":2,"message":` + string(msg) + `}}`)
	}
	send(`{"jsonrpc":"2.0","id":` + ask + `,"method":"elicitation/create","params":{"mode":"form","message":` + string(msg) +
		`,"requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`)
	select {
	case <-answered:
	case <-r.Context().Done():
		return
	}
	send(`{"jsonrpc":"2.0","id":` + string(c.id) + `,"error":{"code":-32603,"message":` + string(msg) + `}}`)
}

// peeked is what peek read of a POST body.
type peeked struct {
	id       json.RawMessage
	tool     string          // the tool a tools/call calls; "" for any other message
	progress json.RawMessage // a tools/call's progress token
	answer   bool            // the client's answer to the server's request
}

// peek reads a POST body and puts it back.
func peek(r *http.Request) peeked {
	if r.Method != http.MethodPost {
		return peeked{}
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
		Params struct {
			Name string `json:"name"`
			Meta struct {
				ProgressToken json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil {
		return peeked{}
	}
	switch {
	case m.Method == "" && (m.Result != nil || m.Error != nil):
		return peeked{id: m.ID, answer: true}
	case m.Method == "tools/call":
		return peeked{id: m.ID, tool: m.Params.Name, progress: m.Params.Meta.ProgressToken}
	}
	return peeked{}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (f *Server) serveAS(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen.ASHeaders = append(f.seen.ASHeaders, r.Header.Clone())
	f.seen.ASPaths = append(f.seen.ASPaths, r.URL.Path)
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server", "/moved/.well-known/oauth-authorization-server":
		if f.MetadataMoved && !strings.HasPrefix(r.URL.Path, "/moved/") {
			http.Redirect(w, r, "/moved"+r.URL.Path, http.StatusTemporaryRedirect)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"issuer": f.AS.URL, "authorization_endpoint": f.AS.URL + "/authorize", "token_endpoint": f.AS.URL + "/token",
			"registration_endpoint": f.AS.URL + "/register", "response_types_supported": []string{"code"},
			"grant_types_supported":                 []string{"authorization_code", "refresh_token", "client_credentials"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none", "client_secret_basic"},
		})
	case "/register":
		var m map[string]any
		json.NewDecoder(r.Body).Decode(&m)
		f.seen.Registrations = append(f.seen.Registrations, m)
		f.n++
		reg := map[string]any{"client_id": fmt.Sprintf("dyn-%d", f.n), "redirect_uris": m["redirect_uris"], "token_endpoint_auth_method": "none"}
		if f.RegisterSecret != "" {
			reg["client_secret"], reg["token_endpoint_auth_method"] = f.RegisterSecret, "client_secret_post"
		}
		writeJSON(w, http.StatusCreated, reg)
	case "/authorize":
		q := r.URL.Query()
		f.seen.Authorizes = append(f.seen.Authorizes, q)
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
		f.seen.TokenForms = append(f.seen.TokenForms, form)
		if f.TokenRedirect != "" {
			http.Redirect(w, r, f.TokenRedirect, http.StatusTemporaryRedirect)
			return
		}
		f.token(w, r, form)
	default:
		http.NotFound(w, r)
	}
}

// token answers the token endpoint; f.mu is held.
func (f *Server) token(w http.ResponseWriter, r *http.Request, form url.Values) {
	var scopes []string
	switch form.Get("grant_type") {
	case "authorization_code":
		req, ok := f.codes[form.Get("code")]
		delete(f.codes, form.Get("code"))
		sum := sha256.Sum256([]byte(form.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != req.Get("code_challenge") || form.Get("redirect_uri") != req.Get("redirect_uri") {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		if id, secret, _ := r.BasicAuth(); req.Get("client_id") == "pre" && (id != "pre" || secret != f.ClientSecret) {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
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
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(f.refresh, form.Get("refresh_token")) // rotated
	case "client_credentials":
		if id, secret, _ := r.BasicAuth(); id != "svc" || secret != f.ClientSecret {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
			return
		}
		scopes = strings.Fields(form.Get("scope"))
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	f.n++
	at, rt := fmt.Sprintf("at-%d-Zq8xW2", f.n), fmt.Sprintf("rt-%d-Kp4vN7", f.n)
	f.access[at] = scopes
	f.seen.Issued = append(f.seen.Issued, at, rt)
	resp := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": 3600, "scope": strings.Join(scopes, " ")}
	if f.ExpiresIn != 0 {
		resp["expires_in"] = f.ExpiresIn
	}
	if form.Get("grant_type") != "client_credentials" {
		f.refresh[rt] = scopes
		resp["refresh_token"] = rt
	}
	writeJSON(w, http.StatusOK, resp)
}
