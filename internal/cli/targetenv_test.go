package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// headerServer serves the plain fixture over streamable HTTP and keeps the
// headers of the requests it got.
type headerServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []http.Header
}

func newHeaderServer(t *testing.T) *headerServer {
	t.Helper()
	sc, err := fixture.Lookup("plain")
	if err != nil {
		t.Fatal(err)
	}
	h := (&fixture.Server{Scenario: sc, StateDir: t.TempDir(), Stderr: io.Discard}).Handler(fixture.HTTPOptions{})
	hs := &headerServer{}
	hs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hs.mu.Lock()
		hs.seen = append(hs.seen, r.Header.Clone())
		hs.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs
}

// header is the value every request had for name, or "" (and a failure)
// when they differ.
func (hs *headerServer) header(t *testing.T, name string) string {
	t.Helper()
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if len(hs.seen) == 0 {
		t.Fatal("no request reached the server")
	}
	v := hs.seen[0].Get(name)
	for _, h := range hs.seen {
		if h.Get(name) != v {
			t.Errorf("%s: %q and %q", name, v, h.Get(name))
		}
	}
	return v
}

// --header-env and --bearer-env send headers from the environment, so a
// host's entry keeps its secrets off mcpsh's command line.
func TestHeadersFromTheEnvironment(t *testing.T) {
	t.Parallel()
	hs := newHeaderServer(t)
	vars := map[string]string{"TENANT": "t-42", "TOKEN": "tok-s3cret-value-123"}
	r, _ := run(t, env{vars: vars}, "tools", "--no-log", "--url", hs.URL, "--header-env", "X-Tenant=TENANT", "--bearer-env", "TOKEN")
	wantCode(t, r, ExitOK)
	if got := hs.header(t, "X-Tenant"); got != "t-42" {
		t.Errorf("X-Tenant: %q", got)
	}
	if got := hs.header(t, "Authorization"); got != "Bearer tok-s3cret-value-123" {
		t.Errorf("Authorization: %q", got)
	}

	// A variable that is not set sends no header, and says so.
	hs = newHeaderServer(t)
	r, _ = run(t, env{vars: vars}, "tools", "--no-log", "--url", hs.URL, "--header-env", "X-Tenant=NOPE", "--header-env=X-Other=TENANT")
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "mcpsh: warning: --header-env X-Tenant=NOPE: $NOPE is not set, so the header is not sent")
	if got := hs.header(t, "X-Tenant"); got != "" {
		t.Errorf("X-Tenant: %q", got)
	}
	if got := hs.header(t, "X-Other"); got != "t-42" {
		t.Errorf("X-Other: %q", got)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--demo", "--header-env", "A=TENANT"}, "--header-env needs --url or --sse"},
		{[]string{"--demo", "--bearer-env", "TOKEN"}, "--bearer-env needs --url or --sse"},
		{[]string{"--url", hs.URL, "--bearer-env", "UNSET"}, "--bearer-env UNSET: $UNSET is not set"},
		{[]string{"--url", hs.URL, "--header-env", "Authorization"}, `--header-env "Authorization": want NAME=VARIABLE`},
		{[]string{"--url", hs.URL, "--header", "authorization: x", "--bearer-env", "TOKEN"}, "--bearer-env: header Authorization is given twice"},
	} {
		r, _ := run(t, env{vars: vars}, append([]string{"tools", "--no-log"}, tt.args...)...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, tt.want) {
			t.Errorf("%q: exit %d\n%s\nwant %q", tt.args, r.code, r.errOut, tt.want)
		}
		if strings.Contains(r.errOut, "tok-s3cret-value-123") {
			t.Errorf("%q shows the token", tt.args)
		}
	}
}

// --as names the server in messages, and mcpsh's config untrusts it by
// that name as it would the host's entry.
func TestAsNamesTheServer(t *testing.T) {
	t.Parallel()
	exe, _ := os.Executable()
	cfg := writeConfig(t, `{"trust": {"cursor:*": "untrusted"}}`)
	r, _ := run(t, env{}, "ping", "--config", cfg, "--no-log", "--as", "cursor:github", "--", exe, serveDemoArg)
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "pong from cursor:github")
	// list_notes is read-only: trusted it runs, untrusted it asks (refused in batch).
	r, _ = run(t, env{}, "call", "--config", cfg, "--no-log", "--as", "codex:notes", "list_notes", "--", exe, serveDemoArg)
	wantCode(t, r, ExitOK)
	r, _ = run(t, env{}, "call", "--config", cfg, "--no-log", "--as", "cursor:notes", "list_notes", "--", exe, serveDemoArg)
	wantCode(t, r, ExitRefused)
	contains(t, "stderr", r.errOut, "untrusted")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--as", "cursor:", "--", exe, serveDemoArg}, `--as "cursor:": want HOST:NAME or NAME`},
		{[]string{"--as", "cursor:x", "-s", "notes"}, "--as names a server reached by --url, --sse or -- COMMAND; -s notes has its name"},
	} {
		r, _ := run(t, env{}, append([]string{"tools", "--config", cfg, "--no-log"}, tt.args...)...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, tt.want) {
			t.Errorf("%q: exit %d\n%s\nwant %q", tt.args, r.code, r.errOut, tt.want)
		}
	}
}

// A global rule written for a host's server reaches a target given that
// name with --as (the entry mcpsh proxy config --write puts in the host's
// file), in each form a server: term can name it; a rule for another
// server does not.
func TestAsTargetGetsGlobalServerRules(t *testing.T) {
	exe, _ := os.Executable()
	t.Setenv("MCPSH_TEST_SERVE_DEMO", "1")
	for _, tt := range []struct {
		rule string
		code int
	}{
		{"server:cursor:notes list_notes", ExitRefused},
		{"server:notes list_notes", ExitRefused},
		{"server:cursor:* list_notes", ExitRefused},
		{"list_notes", ExitRefused},
		{"server:codex:notes list_notes", ExitOK},
		{"server:github list_notes", ExitOK},
	} {
		cfg := writeConfig(t, `{"policy": {"deny": ["`+tt.rule+`"]}}`)
		r, _ := run(t, env{}, "call", "--config", cfg, "--no-log", "--as", "cursor:notes", "list_notes", "--", exe)
		if r.code != tt.code {
			t.Errorf("deny %q, --as cursor:notes: exit %d, want %d\n%s", tt.rule, r.code, tt.code, r.errOut)
		}
	}
}
