package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Grant is how mcpsh gets a token from an authorization server.
type Grant string

const (
	// GrantAuthorizationCode: a person authorizes mcpsh in a browser (the default).
	GrantAuthorizationCode Grant = "authorization_code"
	// GrantClientCredentials: the client ID and secret get the token, with no person.
	GrantClientCredentials Grant = "client_credentials"
)

// Auth configures OAuth 2.1 for streamable HTTP servers. The SDK does the
// protocol (metadata discovery, registration, PKCE, the token exchange, scope
// step-up); Auth says where tokens are kept, which client mcpsh presents, and
// how a person authorizes it. An Auth may serve several sessions, to the same
// server or others: it keeps one authorizer per server URL, so a reconnect
// keeps the token it had. Do not copy an Auth once it is in use.
type Auth struct {
	// Store keeps tokens between runs; required.
	Store TokenStore
	// ClientID and ClientSecret are a client registered in advance. Without
	// them (and without a metadata document the server accepts) mcpsh
	// registers itself dynamically.
	ClientID, ClientSecret string
	// ClientMetadataURL is the https URL of a client ID metadata document,
	// used as the client ID where the authorization server supports it.
	ClientMetadataURL string
	// Scopes, when not nil, replace the scopes the server's metadata
	// suggests; scopes a server's challenge asks for are always requested.
	Scopes []string
	// Grant is GrantAuthorizationCode when empty.
	Grant Grant
	// Login says how a person authorizes mcpsh when the server asks. Nil
	// means nobody can: the request fails with a *LoginRequiredError.
	Login *BrowserLogin
	// Fresh ignores any stored token, so the server asks again (mcpsh login).
	Fresh bool
	// Hint tells a person how to log in to this server, for
	// LoginRequiredError (a command, say); empty names no way.
	Hint string
	// Notify hears what a person must see (the URL to open, a token that could
	// not be stored), already safe for a terminal. It may be called from any
	// goroutine and must not block for long; nil discards.
	Notify func(string)
	// OnStored hears where a new token was stored, after a login or a refresh.
	OnStored func(where string)

	mu          sync.Mutex
	authorizers map[string]*authorizer
}

// BrowserLogin is the authorization code flow as a person sees it: a loopback
// listener on 127.0.0.1 for the redirect, the authorization URL opened in a
// browser and always printed, and a bounded wait for the browser to come back.
type BrowserLogin struct {
	// Open opens url in a browser (OpenBrowser does, from $BROWSER or the
	// platform's opener); nil only prints the URL.
	Open func(ctx context.Context, url string) error
	// Wait bounds the wait for the browser to come back; DefaultLoginWait when 0.
	Wait time.Duration
}

// DefaultLoginWait is how long mcpsh waits for a person to finish in the browser.
const DefaultLoginWait = 5 * time.Minute

// oauthHTTPTimeout bounds each request mcpsh makes to an authorization server
// (metadata, registration, token, refresh); the refreshes run with no caller's
// context to bound them.
const oauthHTTPTimeout = 30 * time.Second

// oauthHandler is the SDK handler the streamable HTTP transport uses, or nil
// when the session has no OAuth configured. It returns an untyped nil then, so
// the transport's nil check holds.
func (s *Session) oauthHandler() auth.OAuthHandler {
	if s.opts.Auth == nil || s.opts.Auth.Store == nil || s.Target.Kind != KindHTTP {
		return nil
	}
	h := s.opts.Auth.authorizerFor(s.Target, s.opts.Version)
	if h == nil {
		return nil
	}
	return h
}

// authorizerFor returns the one authorizer for the target's server.
func (a *Auth) authorizerFor(t Target, version string) *authorizer {
	key, err := CanonicalURL(t.URL)
	if err != nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if h := a.authorizers[key]; h != nil {
		return h
	}
	if a.authorizers == nil {
		a.authorizers = map[string]*authorizer{}
	}
	// The authorization server gets its own client: mcpsh's configured
	// headers belong to the MCP server's origin and often carry credentials.
	hc := &http.Client{Transport: authServerTransport(), Timeout: oauthHTTPTimeout, CheckRedirect: authServerRedirect}
	h := &authorizer{auth: a, target: t, key: key, http: hc, version: version, live: &liveSecrets{}}
	h.live.add(a.ClientSecret)
	h.target.live = h.live
	a.authorizers[key] = h
	return h
}

// authServerTransport carries mcpsh's requests to authorization servers. It
// leaves dialing to net/http, with no DialContext of its own: go-sdk's
// discovery (oauthex) then dials through its own dialer, which refuses
// private and reserved addresses. A transport that dials by itself (a clone
// of http.DefaultTransport does) turns that guard off. The client's
// CheckRedirect (authServerRedirect) replaces go-sdk's redirect check for
// discovery, so it makes the same refusals, and more.
func authServerTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = nil
	return t
}

// liveSecrets are the credentials the authorizer for t's server holds, for
// the session's Target to redact; nil when the session has no OAuth.
func (a *Auth) liveSecrets(t Target, version string) *liveSecrets {
	if a == nil || a.Store == nil || t.Kind != KindHTTP {
		return nil
	}
	if h := a.authorizerFor(t, version); h != nil {
		return h.live
	}
	return nil
}

func (a *Auth) notify(msg string) {
	if a.Notify != nil {
		a.Notify(msg)
	}
}

// authorizer is the OAuth handler for one server: the token it uses now, and
// how it gets a new one when the server refuses that.
type authorizer struct {
	auth    *Auth
	target  Target
	key     string // the server's canonical URL
	http    *http.Client
	version string
	// live is every credential this authorizer has held, current and past;
	// target carries it, so target.Redact knows them all.
	live *liveSecrets

	mu     sync.Mutex
	loaded bool          // the store has been read
	src    *savingSource // the token in use; nil for none

	// flow lets one authorization run at a time: two requests refused together
	// must not open two browser tabs.
	flow sync.Mutex
}

var _ auth.OAuthHandler = (*authorizer)(nil)

// TokenSource gives the transport the token to send: the one from this
// session's last authorization, else the stored one. A token that has expired
// and cannot be renewed gives none, so the server refuses the request and
// Authorize gets a new one.
func (h *authorizer) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.loaded {
		h.loaded = true
		if !h.auth.Fresh {
			h.src = h.fromStore()
		}
	}
	if h.src == nil || !h.src.usable() {
		return nil, nil
	}
	return h.src, nil
}

// fromStore is the stored token, refreshed as it expires; nil for none.
func (h *authorizer) fromStore() *savingSource {
	rec, _, err := h.auth.Store.load(h.key)
	if err != nil {
		h.auth.notify("the stored login for " + h.target.Label() + " cannot be read, so the server may ask again: " + h.redact(err.Error()))
		return nil
	}
	if rec == nil {
		return nil
	}
	h.live.add(rec.secrets()...)
	if !rec.usable() {
		return nil
	}
	var base oauth2.TokenSource = oauth2.StaticTokenSource(rec.oauth2())
	if rec.refreshable() {
		base = rec.config().TokenSource(h.refreshContext(), rec.oauth2())
	}
	return &savingSource{h: h, rec: rec, base: base, renewable: rec.refreshable()}
}

// refreshContext carries the authorization server's HTTP client to oauth2,
// and no deadline: the token source outlives any one request.
func (h *authorizer) refreshContext() context.Context {
	return context.WithValue(context.Background(), oauth2.HTTPClient, h.http)
}

// current is the access token in use, or "" when there is none that can
// still authorize a request.
func (h *authorizer) current() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.src == nil || !h.src.usable() {
		return ""
	}
	return h.src.accessToken()
}

func (h *authorizer) use(src *savingSource) {
	h.mu.Lock()
	h.src = src
	h.loaded = true
	h.mu.Unlock()
}

// Authorize gets a new token after the server refused a request (401, or 403
// asking for more scopes). The transport sends the request again once it
// returns nil, and gives up on a second refusal.
func (h *authorizer) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	h.flow.Lock()
	defer h.flow.Unlock()
	// The SDK's handlers close the body; the paths that return early here must too.
	drain := func() {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
	}
	if tok := h.current(); tok != "" && req.Header.Get("Authorization") != "Bearer "+tok {
		// Another request got a new token while this one waited: try it first.
		drain()
		return nil
	}
	h.keepMetadataOnOrigin(resp)
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	stepUp := resp.StatusCode == http.StatusForbidden
	if stepUp && challengeParam(challenges, "error") != "insufficient_scope" {
		// A 403 that is not about scopes is the server's answer; a new token
		// would not change it (the SDK's handler does the same).
		drain()
		return nil
	}
	switch {
	case h.auth.Grant == GrantClientCredentials:
		return h.clientCredentials(ctx, req, resp)
	case h.auth.Login == nil:
		drain()
		e := &LoginRequiredError{Server: h.target.Label(), Hint: h.hint()}
		if stepUp {
			e.Scopes = strings.Fields(challengeParam(challenges, "scope"))
		}
		return e
	}
	return h.authorizationCode(ctx, req, resp, challenges)
}

// authorizationCode runs the SDK's authorization code flow with a loopback
// listener of its own. The listener, and so the redirect URI, is new for each
// flow: it exists only while a person is expected in the browser.
func (h *authorizer) authorizationCode(ctx context.Context, req *http.Request, resp *http.Response, challenges []oauthex.Challenge) error {
	lb, err := listenLoopback()
	if err != nil {
		resp.Body.Close()
		return err
	}
	defer lb.close()
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL: lb.redirectURL(),
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			return h.fetchCode(ctx, lb, args.URL)
		},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:              "mcpsh",
			SoftwareID:              "github.com/mcpsh/mcpsh",
			SoftwareVersion:         h.version,
			RedirectURIs:            []string{lb.redirectURL()},
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			TokenEndpointAuthMethod: "none",
		}},
		ScopeFilter:         h.scopeFilter(strings.Fields(challengeParam(challenges, "scope"))),
		RequestRefreshToken: true,
		Client:              h.http,
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			return h.issued(ctx, cfg, tok), nil
		},
	}
	if h.auth.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: h.auth.ClientMetadataURL}
	}
	if h.auth.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: h.auth.ClientID}
		if h.auth.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.auth.ClientSecret}
		}
	}
	flow, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		resp.Body.Close()
		return h.wrap(err)
	}
	return h.wrap(flow.Authorize(ctx, req, resp))
}

// issued is the SDK's NewTokenSource hook: a token has just been exchanged.
// It is stored at once, with what it takes to refresh it, and used from now on.
func (h *authorizer) issued(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) oauth2.TokenSource {
	rec := &storedToken{Grant: string(GrantAuthorizationCode), ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
		TokenURL: cfg.Endpoint.TokenURL, AuthStyle: int(cfg.Endpoint.AuthStyle), Scopes: grantedScopes(tok, cfg.Scopes)}
	src := &savingSource{h: h, rec: rec, base: cfg.TokenSource(ctx, tok), renewable: tok.RefreshToken != ""}
	src.record(tok)
	h.use(src)
	return src
}

// clientCredentials gets a token with the client's own ID and secret
// (extauth's handler: the SEP-1046 extension), with no person involved.
func (h *authorizer) clientCredentials(ctx context.Context, req *http.Request, resp *http.Response) error {
	creds := &oauthex.ClientCredentials{ClientID: h.auth.ClientID, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: h.auth.ClientSecret}}
	cc, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{Credentials: creds, HTTPClient: h.http})
	if err != nil {
		resp.Body.Close()
		return h.wrap(err)
	}
	if err := cc.Authorize(ctx, req, resp); err != nil {
		return h.wrap(err)
	}
	ts, err := cc.TokenSource(ctx)
	if err != nil || ts == nil {
		return h.wrap(errors.Join(errors.New("the client credentials grant gave no token"), err))
	}
	tok, err := ts.Token() // cached by now: Authorize fetched it
	if err != nil {
		return h.wrap(err)
	}
	// The secret is not stored with the token: renewing needs the client's
	// configuration, which keeps it (and a one-off login to a bare URL asks again).
	rec := &storedToken{Grant: string(GrantClientCredentials), ClientID: h.auth.ClientID, Scopes: grantedScopes(tok, nil)}
	src := &savingSource{h: h, rec: rec, base: ts, renewable: true}
	src.record(tok)
	h.use(src)
	return nil
}

// scopeFilter decides what to ask for: the configured scopes in place of the
// ones the server's metadata suggests, plus what a challenge asks for, plus
// what the current token already has, so a step-up never loses scopes.
func (h *authorizer) scopeFilter(challenged []string) func([]string) []string {
	return func(discovered []string) []string {
		want := discovered
		if h.auth.Scopes != nil {
			want = union(h.auth.Scopes, challenged)
		}
		h.mu.Lock()
		var had []string
		if h.src != nil {
			had = h.src.scopes()
		}
		h.mu.Unlock()
		return union(had, want)
	}
}

// hint is how a person logs in to this server, as the caller put it.
func (h *authorizer) hint() string { return h.auth.Hint }

// redact takes every credential mcpsh knows of out of s: the tokens it has
// held, the client secrets, and the target's own secrets.
func (h *authorizer) redact(s string) string { return h.target.Redact(s) }

// wrap keeps tokens out of an error's text; errors.As still finds what is
// inside (the SDK looks for oauth2's invalid_grant).
func (h *authorizer) wrap(err error) error {
	var lr *LoginRequiredError
	if err == nil || errors.As(err, &lr) {
		return err
	}
	return &authError{msg: h.redact(err.Error()), err: err}
}

type authError struct {
	msg string
	err error
}

func (e *authError) Error() string { return e.msg }
func (e *authError) Unwrap() error { return e.err }

// challengeParam is a parameter of the Bearer challenge, or "".
func challengeParam(cs []oauthex.Challenge, name string) string {
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params[name] != "" {
			return c.Params[name]
		}
	}
	return ""
}

// grantedScopes are the scopes the token says it has, else those asked for.
func grantedScopes(tok *oauth2.Token, asked []string) []string {
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		return strings.Fields(s)
	}
	return slices.Clone(asked)
}

// union is a then the members of b not in a, in order, without repeats.
func union(a, b []string) []string {
	out := []string{}
	for _, s := range slices.Concat(a, b) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
