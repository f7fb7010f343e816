package client

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

func TestCanonicalURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"https://MCP.Example.com/mcp", "https://mcp.example.com/mcp"},
		{"HTTPS://mcp.example.com:443/mcp/", "https://mcp.example.com/mcp"},
		{"http://127.0.0.1:80/", "http://127.0.0.1"},
		{"http://127.0.0.1:8080/mcp#frag", "http://127.0.0.1:8080/mcp"},
		{"https://user:pw@h.example/mcp?tenant=a", "https://h.example/mcp?tenant=a"},
		{"http://[::1]:9000/mcp", "http://[::1]:9000/mcp"},
		{"http://[::1]/mcp", "http://[::1]/mcp"},
	}
	for _, tt := range tests {
		if got, err := CanonicalURL(tt.in); err != nil || got != tt.want {
			t.Errorf("CanonicalURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"ftp://h/x", "/just/a/path", "http://"} {
		if _, err := CanonicalURL(bad); err == nil {
			t.Errorf("CanonicalURL(%q): no error", bad)
		}
	}
}

// TestFileStorePermissions: tokens are in 0600 files in a 0700 folder, even
// when the folder already existed with looser permissions.
func TestFileStorePermissions(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tokens")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := NewFileTokenStore(dir)
	where, err := s.save("https://h/mcp", &storedToken{URL: "https://h/mcp", AccessToken: "at-Fp2Lk8"})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(where) != dir {
		t.Errorf("stored at %s, not in %s", where, dir)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, where: 0o600} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", p, fi.Mode().Perm(), err, want)
		}
	}
	if strings.Contains(filepath.Base(where), "h") && strings.Contains(filepath.Base(where), "mcp") {
		t.Errorf("the file is named after the URL: %s", where)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want the token file alone", len(entries))
	}
}

func TestFileStoreRoundTrip(t *testing.T) {
	t.Parallel()
	s := NewFileTokenStore(t.TempDir())
	if got, _, err := s.load("https://h/mcp"); got != nil || err != nil {
		t.Fatalf("empty store: %v %v", got, err)
	}
	exp := time.Now().Add(time.Hour).Truncate(time.Second)
	s.save("https://h/mcp", &storedToken{URL: "https://h/mcp", AccessToken: "at-Fp2Lk8", RefreshToken: "rt-Jd9Sa1", TokenURL: "https://as/token", Expiry: exp})
	info, err := LoginStatus(s, "https://H:443/mcp/")
	if err != nil || !info.Stored || !info.Refreshable || !info.Usable || !info.Expiry.Equal(exp) || info.Where == "" {
		t.Fatalf("status = %+v, %v", info, err)
	}
	removed, err := Logout(s, "https://h/mcp")
	if err != nil || len(removed) != 1 {
		t.Fatalf("logout: %v %v", removed, err)
	}
	if removed, err := Logout(s, "https://h/mcp"); err != nil || removed != nil {
		t.Errorf("second logout: %v %v", removed, err)
	}
	if info, _ := LoginStatus(s, "https://h/mcp"); info.Stored {
		t.Error("still stored after logout")
	}
}

// TestFileStoreDamaged: a file that is not a token says so without quoting
// itself, and logout removes it.
func TestFileStoreDamaged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := NewFileTokenStore(dir).(*fileStore)
	os.WriteFile(s.path("https://h/mcp"), []byte(`{"access_token": "at-Fp2Lk8", oops`), 0o600)
	_, err := LoginStatus(s, "https://h/mcp")
	if err == nil || strings.Contains(err.Error(), "at-Fp2Lk8") || !strings.Contains(err.Error(), "logging out removes it") {
		t.Errorf("err = %v", err)
	}
	if removed, err := Logout(s, "https://h/mcp"); err != nil || len(removed) != 1 {
		t.Errorf("logout: %v %v", removed, err)
	}
}

// TestAutoStore: with a keyring the token goes there (and a file copy goes
// away); without one it goes to a file, and is found again either way.
func TestAutoStore(t *testing.T) {
	t.Parallel()
	t.Cleanup(func() { keyring.MockInitWithError(errors.New("no keyring in tests")) })
	dir := t.TempDir()
	key := "https://h/mcp"
	tok := &storedToken{URL: key, AccessToken: "at-Fp2Lk8"}

	keyring.MockInitWithError(errors.New("org.freedesktop.DBus.Error.ServiceUnknown"))
	s := NewTokenStore(dir)
	where, err := s.save(key, tok)
	if err != nil || filepath.Dir(where) != dir {
		t.Fatalf("without a keyring: stored at %q, %v", where, err)
	}
	if got, w, err := s.load(key); err != nil || got == nil || w != where {
		t.Fatalf("load without a keyring: %v %q %v", got, w, err)
	}

	keyring.MockInit()
	if got, _, err := s.load(key); err != nil || got == nil {
		t.Fatalf("the file copy is not found once a keyring appears: %v %v", got, err)
	}
	where, err = s.save(key, tok)
	if err != nil || where != keyringWhere {
		t.Fatalf("with a keyring: stored at %q, %v", where, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the file copy stayed: %v", entries)
	}
	removed, err := s.remove(key)
	if err != nil || len(removed) != 1 || removed[0] != keyringWhere {
		t.Errorf("remove: %v %v", removed, err)
	}
}

// TestLoopback: only the flow's own state ends the wait; anything else that
// reaches the port is turned away, and cancelling the context ends the wait.
func TestLoopback(t *testing.T) {
	t.Parallel()
	lb, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	defer lb.close()
	if !strings.HasPrefix(lb.redirectURL(), "http://127.0.0.1:") || !strings.HasSuffix(lb.redirectURL(), "/callback") {
		t.Fatalf("redirect URL %s", lb.redirectURL())
	}
	lb.expect("the-state")
	resp, err := http.Get(lb.redirectURL() + "?code=evil&state=other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("wrong state: HTTP %d", resp.StatusCode)
	}
	select {
	case cb := <-lb.answer:
		t.Fatalf("a wrong state ended the wait: %+v", cb)
	default:
	}
	resp, err = http.Get(lb.redirectURL() + "?code=good&state=the-state&iss=https://as")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cb := <-lb.answer
	if cb.err != nil || cb.res.Code != "good" || cb.res.Iss != "https://as" {
		t.Errorf("answer = %+v", cb)
	}

	// The authorization server's refusal comes back as an error, made safe.
	h := &authorizer{auth: &Auth{Login: &BrowserLogin{}}, target: Target{Name: "x"}}
	go func() {
		resp, err := http.Get(lb.redirectURL() + "?error=access_denied&error_description=no%1b%5b31m&state=s2")
		if err == nil {
			resp.Body.Close()
		}
	}()
	_, err = h.fetchCode(context.Background(), lb, "https://as.example/authorize?state=s2")
	if err == nil || !strings.Contains(err.Error(), "access_denied: no") || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("refusal: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.fetchCode(ctx, lb, "https://as.example/authorize?state=s3"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "--help"} {
		if _, err := h.fetchCode(ctx, lb, bad); err == nil || !strings.Contains(err.Error(), "not an http or https URL") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestBrowserCommand(t *testing.T) {
	t.Parallel()
	env := func(b string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			if k == "BROWSER" && b != "" {
				return b, true
			}
			return "", false
		}
	}
	u := "https://as.example/authorize?a=1&b=2"
	got, err := browserCommand(env("no-such-browser-x:sh -c %s"), "linux", u)
	if err != nil || len(got) != 3 || got[0] != "sh" || got[2] != u {
		t.Errorf("with %%s: %q %v", got, err)
	}
	got, err = browserCommand(env("sh"), "linux", u)
	if err != nil || len(got) != 2 || got[1] != u {
		t.Errorf("appended: %q %v", got, err)
	}
	if _, err := browserCommand(env("no-such-browser-x"), "linux", u); err == nil {
		t.Error("a $BROWSER that is not there: no error")
	}
}

func TestLoginRequiredMessage(t *testing.T) {
	t.Parallel()
	e := &LoginRequiredError{Server: "tracker\x1b[2J", Hint: "mcpsh login -s tracker", Scopes: []string{"write\x1b]0;x\x07", "admin"}}
	msg := e.Error()
	if strings.ContainsAny(msg, "\x1b\x07") || !strings.HasSuffix(msg, "run mcpsh login -s tracker") || !strings.Contains(msg, "more access") {
		t.Errorf("message = %q", msg)
	}
}

// TestKeyringAccount: keyring attributes are not secret, so a credential in
// the URL does not go into one.
func TestKeyringAccount(t *testing.T) {
	t.Parallel()
	if got := keyringAccount("https://h.example/mcp"); got != "https://h.example/mcp" {
		t.Errorf("plain URL: %q", got)
	}
	a := keyringAccount("https://h.example/mcp?api_key=k-Secret123")
	b := keyringAccount("https://h.example/mcp?api_key=k-Other4567")
	if strings.Contains(a, "k-Secret123") || !strings.HasPrefix(a, "https://h.example/mcp?api_key=[redacted] #") || a == b {
		t.Errorf("URLs with secrets: %q, %q", a, b)
	}
}
