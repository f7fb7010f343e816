package client

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/oauthfake"
	"github.com/mcpsh/mcpsh/policy"
)

// testBound keeps a broken flow from hanging the suite; nothing is timed by it.
const testBound = 60 * time.Second

func connectOAuth(t *testing.T, f *oauthfake.Server, a *Auth, headers map[string]string) (*Session, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testBound)
	defer cancel()
	tgt := Target{Name: "prot", Kind: KindHTTP, URL: f.URL(), Headers: headers, Trust: policy.Trusted}
	s, err := Connect(ctx, tgt, &Options{Auth: a})
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

// callWhoami lists the tools and calls whoami, which needs a valid token.
func callWhoami(t *testing.T, s *Session) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testBound)
	defer cancel()
	if _, err := s.ListTools(ctx); err != nil {
		t.Fatalf("listing tools: %v", err)
	}
	o, err := s.Do(ctx, &Call{Tool: mustTool(t, s, "whoami"), Args: map[string]any{}, Mode: policy.Batch})
	if err != nil || o.Status != StatusOK {
		t.Fatalf("whoami: %v %+v", err, o)
	}
}

func browserAuth(store TokenStore) *Auth {
	return &Auth{Store: store, Login: &BrowserLogin{Open: oauthfake.FollowBrowser}}
}

// TestOAuthLoginThenStoredToken: the first session runs the whole flow (DCR,
// browser, PKCE exchange) and stores the token; the next one, with no one to
// authorize, uses the stored token and never asks.
func TestOAuthLoginThenStoredToken(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	store := NewFileTokenStore(t.TempDir())
	var stored []string
	a := browserAuth(store)
	a.OnStored = func(w string) { stored = append(stored, w) }
	s, err := connectOAuth(t, f, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	s.Close()
	first := f.Seen()
	if len(first.Registrations) != 1 || len(first.Authorizes) != 1 || len(stored) != 1 {
		t.Fatalf("registrations %d, authorizations %d, stored %v; want one of each", len(first.Registrations), len(first.Authorizes), stored)
	}
	reg := first.Registrations[0]
	if reg["client_name"] != "mcpsh" || reg["token_endpoint_auth_method"] != "none" ||
		!strings.HasPrefix(reg["redirect_uris"].([]any)[0].(string), "http://127.0.0.1:") {
		t.Errorf("registration = %v", reg)
	}
	if gt := reg["grant_types"].([]any); len(gt) != 2 || gt[0] != "authorization_code" || gt[1] != "refresh_token" {
		t.Errorf("grant_types = %v", gt)
	}
	authz := first.Authorizes[0]
	if authz.Get("code_challenge_method") != "S256" || authz.Get("resource") != f.URL() || authz.Get("state") == "" {
		t.Errorf("authorize request = %v", authz)
	}

	s, err = connectOAuth(t, f, &Auth{Store: store}, nil)
	if err != nil {
		t.Fatalf("second session, with the stored token: %v", err)
	}
	callWhoami(t, s)
	second := f.Seen()
	if len(second.Authorizes) != 1 || len(second.Registrations) != 1 || len(second.TokenForms) != len(first.TokenForms) {
		t.Errorf("the second session authorized again: %d authorizations, %d token requests (first had %d)",
			len(second.Authorizes), len(second.TokenForms), len(first.TokenForms))
	}
	if second.Calls != 2 {
		t.Errorf("calls = %d, want 2", second.Calls)
	}
}

// TestOAuthRefreshExpired: a stored token that has expired is refreshed at the
// token endpoint it came from, and the new token (and rotated refresh token)
// is stored before the next run needs it.
func TestOAuthRefreshExpired(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.IssueRefresh("rt-seed-Lm3Qp9")
	store := NewFileTokenStore(t.TempDir())
	key, _ := CanonicalURL(f.URL())
	seed := &storedToken{Version: 1, URL: key, Grant: "authorization_code", AccessToken: "at-expired-Hw5Rt1", TokenType: "Bearer",
		RefreshToken: "rt-seed-Lm3Qp9", Expiry: time.Now().Add(-time.Hour), ClientID: "dyn-0", TokenURL: f.AS.URL + "/token"}
	if _, err := store.save(key, seed); err != nil {
		t.Fatal(err)
	}
	s, err := connectOAuth(t, f, &Auth{Store: store}, nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	seen := f.Seen()
	if len(seen.TokenForms) != 1 || seen.TokenForms[0].Get("grant_type") != "refresh_token" || seen.TokenForms[0].Get("refresh_token") != "rt-seed-Lm3Qp9" {
		t.Fatalf("token requests = %v, want one refresh with the stored refresh token", seen.TokenForms)
	}
	if slices.Contains(seen.BearerSeen, "Bearer at-expired-Hw5Rt1") {
		t.Error("the expired token was sent")
	}
	got, _, err := store.load(key)
	if err != nil || got == nil {
		t.Fatalf("load: %v %v", got, err)
	}
	if got.AccessToken == seed.AccessToken || !strings.HasPrefix(got.RefreshToken, "rt-") || got.RefreshToken == seed.RefreshToken || !got.Expiry.After(time.Now()) {
		t.Errorf("stored after the refresh: access %q refresh %q expiry %v", got.AccessToken, got.RefreshToken, got.Expiry)
	}
	if !slices.Contains(seen.BearerSeen, "Bearer "+got.AccessToken) {
		t.Error("the refreshed token was not the one sent")
	}
}

// TestOAuthLoginRequired: with no one to authorize, a server that asks gets
// a LoginRequiredError naming the command, and mcpsh registers nothing.
func TestOAuthLoginRequired(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	_, err := connectOAuth(t, f, &Auth{Store: NewFileTokenStore(t.TempDir()), Hint: "mcpsh login -s prot"}, nil)
	var lr *LoginRequiredError
	if !errors.As(err, &lr) {
		t.Fatalf("err = %v, want a *LoginRequiredError", err)
	}
	if !strings.Contains(err.Error(), "run mcpsh login -s prot") {
		t.Errorf("message lacks the hint: %v", err)
	}
	if seen := f.Seen(); len(seen.Registrations)+len(seen.Authorizes)+len(seen.TokenForms) != 0 {
		t.Errorf("the authorization server was used: %+v", seen)
	}
	lr.Hint = ""
	// Without a hint from the caller, the library names no command of anyone's.
	if _, err := connectOAuth(t, f, &Auth{Store: NewFileTokenStore(t.TempDir())}, nil); err == nil || !strings.Contains(err.Error(), "asks you to log in, and no one here can log in") {
		t.Errorf("no hint: %v", err)
	}
}

// TestOAuthHeadersStayWithServer: the headers configured for the MCP server
// (credentials, often) never reach the authorization server.
func TestOAuthHeadersStayWithServer(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	s, err := connectOAuth(t, f, browserAuth(NewFileTokenStore(t.TempDir())), map[string]string{"X-Api-Key": "hdr-secret-Vb7Nc2"})
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	seen := f.Seen()
	if len(seen.ASHeaders) == 0 {
		t.Fatal("the authorization server saw nothing")
	}
	for _, h := range seen.ASHeaders {
		if h.Get("X-Api-Key") != "" {
			t.Fatalf("the authorization server got the MCP server's header: %v", h)
		}
	}
}

// TestOAuthTokensNotInErrors: a failed refresh whose answer quotes the
// tokens says what failed without them.
func TestOAuthTokensNotInErrors(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.RefreshFails = `{"error":"server_error","echo":"refresh_token=rt-seed-Lm3Qp9 access at-expired-Hw5Rt1"}`
	store := NewFileTokenStore(t.TempDir())
	key, _ := CanonicalURL(f.URL())
	store.save(key, &storedToken{Version: 1, URL: key, AccessToken: "at-expired-Hw5Rt1", RefreshToken: "rt-seed-Lm3Qp9",
		Expiry: time.Now().Add(-time.Hour), ClientID: "dyn-0", TokenURL: f.AS.URL + "/token"})
	_, err := connectOAuth(t, f, &Auth{Store: store}, nil)
	if err == nil {
		t.Fatal("connected although the refresh failed")
	}
	if msg := err.Error(); strings.Contains(msg, "rt-seed-Lm3Qp9") || strings.Contains(msg, "at-expired-Hw5Rt1") || !strings.Contains(msg, "Internal Server Error") {
		t.Errorf("error = %s", msg)
	}
}

// TestOAuthStepUp: a 403 asking for more scope runs a second authorization
// for the union of what the token had and what the server wants.
func TestOAuthStepUp(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.ScopesSupported = []string{"read"}
	f.CallScope = "write"
	s, err := connectOAuth(t, f, browserAuth(NewFileTokenStore(t.TempDir())), nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	seen := f.Seen()
	if len(seen.Authorizes) != 2 {
		t.Fatalf("authorizations = %d, want 2", len(seen.Authorizes))
	}
	a, b := seen.Authorizes[0].Get("scope"), strings.Fields(seen.Authorizes[1].Get("scope"))
	slices.Sort(b)
	if a != "read" || !slices.Equal(b, []string{"read", "write"}) {
		t.Errorf("scopes asked = %q then %q, want read then read write", a, b)
	}
}

// TestOAuthStepUpWithoutBrowser: the same step-up in a script fails the call
// without touching the authorization server: no registration, no browser.
// (How the call's error reads is client/failure.go's: see LoginRequiredError.)
func TestOAuthStepUpWithoutBrowser(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.ScopesSupported = []string{"read"}
	store := NewFileTokenStore(t.TempDir())
	s, err := connectOAuth(t, f, browserAuth(store), nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	s.Close()
	before := f.Seen()
	f.SetCallScope("write")
	s, err = connectOAuth(t, f, &Auth{Store: store, Hint: "mcpsh login -s prot"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testBound)
	defer cancel()
	if _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	o, _ := s.Do(ctx, &Call{Tool: mustTool(t, s, "whoami"), Args: map[string]any{}, Mode: policy.Batch})
	if o == nil || o.Status != StatusFailed {
		t.Fatalf("outcome = %+v", o)
	}
	after := f.Seen()
	if len(after.Registrations) != len(before.Registrations) || len(after.Authorizes) != len(before.Authorizes) {
		t.Errorf("a script started an authorization: registrations %d→%d, authorizations %d→%d",
			len(before.Registrations), len(after.Registrations), len(before.Authorizes), len(after.Authorizes))
	}
}

// TestOAuthPreregistered: a configured client ID and secret are used instead
// of registering, and the secret goes to the token endpoint only.
func TestOAuthPreregistered(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.ClientSecret = "pre-secret-Tg6Yh3"
	a := browserAuth(NewFileTokenStore(t.TempDir()))
	a.ClientID, a.ClientSecret = "pre", "pre-secret-Tg6Yh3"
	s, err := connectOAuth(t, f, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	seen := f.Seen()
	if len(seen.Registrations) != 0 || seen.Authorizes[0].Get("client_id") != "pre" {
		t.Errorf("registrations %d, client_id %q", len(seen.Registrations), seen.Authorizes[0].Get("client_id"))
	}
}

// TestOAuthClientCredentials: the client_credentials grant needs no person,
// so it works without a browser, and its token is stored like any other.
func TestOAuthClientCredentials(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.ClientSecret = "svc-secret-Qw2Er5"
	store := NewFileTokenStore(t.TempDir())
	a := &Auth{Store: store, Grant: GrantClientCredentials, ClientID: "svc", ClientSecret: "svc-secret-Qw2Er5"}
	s, err := connectOAuth(t, f, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	seen := f.Seen()
	if len(seen.Authorizes) != 0 || len(seen.TokenForms) != 1 || seen.TokenForms[0].Get("grant_type") != "client_credentials" {
		t.Errorf("authorizations %d, token requests %v", len(seen.Authorizes), seen.TokenForms)
	}
	info, err := LoginStatus(store, f.URL())
	if err != nil || !info.Stored || info.Grant != "client_credentials" {
		t.Errorf("status = %+v, %v", info, err)
	}
}

// TestOAuthBrowserCommand runs the flow through $BROWSER, as a person's
// machine would: a script that fetches the URL and follows the redirects.
func TestOAuthBrowserCommand(t *testing.T) {
	t.Parallel()
	browser := oauthfake.CurlBrowser(t)
	f := oauthfake.New(t)
	var notes []string
	a := &Auth{Store: NewFileTokenStore(t.TempDir()), Notify: func(s string) { notes = append(notes, s) },
		Login: &BrowserLogin{Open: OpenBrowser(func(k string) (string, bool) {
			if k == "BROWSER" {
				return browser, true
			}
			return "", false
		})}}
	s, err := connectOAuth(t, f, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	asHost := strings.TrimPrefix(f.AS.URL, "http://")
	if len(notes) == 0 || !strings.Contains(notes[0], "at 127.0.0.1") || !strings.Contains(notes[0], "http://"+asHost+"/authorize?") {
		t.Errorf("the URL was not shown with its host: %q", notes)
	}
}

// TestOAuthFreshIgnoresStored: a login asks again even with a token stored,
// and replaces it.
func TestOAuthFreshIgnoresStored(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	store := NewFileTokenStore(t.TempDir())
	s, err := connectOAuth(t, f, browserAuth(store), nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	s.Close()
	key, _ := CanonicalURL(f.URL())
	before, _, _ := store.load(key)
	a := browserAuth(store)
	a.Fresh = true
	s, err = connectOAuth(t, f, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	after, _, _ := store.load(key)
	if n := len(f.Seen().Authorizes); n != 2 || after.AccessToken == before.AccessToken {
		t.Errorf("authorizations %d; token replaced: %v", n, after.AccessToken != before.AccessToken)
	}
}

// TestOAuthRefreshRefused: a refresh token the server no longer accepts
// (invalid_grant) leads to a new login, not to a dead end.
func TestOAuthRefreshRefused(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	store := NewFileTokenStore(t.TempDir())
	key, _ := CanonicalURL(f.URL())
	store.save(key, &storedToken{Version: 1, URL: key, AccessToken: "at-expired-Hw5Rt1", RefreshToken: "rt-revoked-Bn4Mk0",
		Expiry: time.Now().Add(-time.Hour), ClientID: "dyn-0", TokenURL: f.AS.URL + "/token"})
	s, err := connectOAuth(t, f, browserAuth(store), nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	seen := f.Seen()
	if len(seen.Authorizes) != 1 || seen.TokenForms[0].Get("grant_type") != "refresh_token" {
		t.Errorf("authorizations %d, token requests %v; want a refused refresh, then a login", len(seen.Authorizes), seen.TokenForms)
	}
}

// TestOAuthDamagedStore: a stored token that cannot be read is reported and
// replaced by a new login.
func TestOAuthDamagedStore(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	dir := t.TempDir()
	store := NewFileTokenStore(dir).(*fileStore)
	key, _ := CanonicalURL(f.URL())
	os.WriteFile(store.path(key), []byte("{not json"), 0o600)
	var notes []string
	a := browserAuth(store)
	a.Notify = func(s string) { notes = append(notes, s) }
	s, err := connectOAuth(t, f, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	if len(notes) == 0 || !strings.Contains(notes[0], "cannot be read") {
		t.Errorf("notes = %q", notes)
	}
	if got, _, err := store.load(key); err != nil || got == nil {
		t.Errorf("the new login was not stored: %v %v", got, err)
	}
}
