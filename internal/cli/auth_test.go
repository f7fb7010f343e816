package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/oauthfake"
)

// authEnv is the environment of the OAuth tests: a state folder shared by
// the test's runs (tokens live there), files rather than the developer's
// keyring, and $BROWSER when browser is not "".
func authEnv(t *testing.T, state, browser string) env {
	vars := map[string]string{"XDG_STATE_HOME": state, "MCPSH_TOKEN_STORE": "file"}
	if browser != "" {
		vars["BROWSER"] = browser
	}
	return env{vars: vars}
}

// noSecrets fails if any token the fake handed out shows in texts.
func noSecrets(t *testing.T, f *oauthfake.Server, extra []string, texts map[string]string) {
	t.Helper()
	secrets := append(f.Seen().Issued, extra...)
	for what, text := range texts {
		for _, s := range secrets {
			if s != "" && strings.Contains(text, s) {
				t.Errorf("%s shows a credential (%s…):\n%s", what, s[:4], text)
			}
		}
	}
}

// TestLoginThenCall: login runs the browser flow once and stores the token;
// a script then calls the server with it, and nothing asks again.
func TestLoginThenCall(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	state := t.TempDir()
	r, _ := run(t, authEnv(t, state, oauthfake.CurlBrowser(t)), "login", "--url", f.URL())
	wantCode(t, r, ExitOK)
	tokens := filepath.Join(state, "mcpsh", "tokens")
	contains(t, "stdout", r.out, "logged in to "+f.URL()+" (token expires in 59 min); the token is in "+tokens+string(filepath.Separator))
	contains(t, "stderr", r.errOut, "asks you to log in at 127.0.0.1", f.AS.URL+"/authorize?")
	if n := len(f.Seen().Authorizes); n != 1 {
		t.Fatalf("authorizations = %d", n)
	}
	log := filepath.Join(t.TempDir(), "session.jsonl")
	c, _ := run(t, authEnv(t, state, ""), "call", "--url", f.URL(), "whoami", "--log", log)
	wantCode(t, c, ExitOK)
	contains(t, "stdout", c.out, "you are in")
	seen := f.Seen()
	if len(seen.Authorizes) != 1 || len(seen.Registrations) != 1 || seen.Calls != 1 {
		t.Errorf("after the call: %d authorizations, %d registrations, %d calls", len(seen.Authorizes), len(seen.Registrations), seen.Calls)
	}
	logText, _ := os.ReadFile(log)
	noSecrets(t, f, nil, map[string]string{"login stdout": r.out, "login stderr": r.errOut,
		"call stdout": c.out, "call stderr": c.errOut, "session log": string(logText)})

	// The file store keeps the token private.
	for p, want := range map[string]os.FileMode{tokens: 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v", p, fi.Mode().Perm(), err)
		}
	}
	entries, _ := os.ReadDir(tokens)
	for _, e := range entries {
		if fi, _ := e.Info(); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", e.Name(), fi.Mode().Perm())
		}
	}
}

// TestBatchNeedsLogin: a script with no terminal and no $BROWSER cannot log
// in: it fails (exit 1) saying which command to run, and registers nothing.
func TestBatchNeedsLogin(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	state := t.TempDir()
	r, _ := run(t, authEnv(t, state, ""), "call", "--url", f.URL(), "whoami")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "run mcpsh login --url "+f.URL())

	cfg := writeConfig(t, sprintf(`{"mcpServers": {"prot": {"type": "http", "url": %q}}}`, f.URL()))
	r, _ = run(t, authEnv(t, state, ""), "tools", "--config", cfg, "-s", "prot")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "run mcpsh login --config "+cfg+" -s prot")
	if seen := f.Seen(); len(seen.Registrations)+len(seen.Authorizes) != 0 {
		t.Errorf("a script started an authorization: %d registrations, %d authorizations", len(seen.Registrations), len(seen.Authorizes))
	}
}

// TestLogout removes the stored token, and says so when there is none.
func TestLogout(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	state := t.TempDir()
	e := authEnv(t, state, oauthfake.CurlBrowser(t))
	r, _ := run(t, e, "login", "--url", f.URL())
	wantCode(t, r, ExitOK)
	r, _ = run(t, e, "logout", "--url", f.URL())
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "logged out of "+f.URL()+": removed the token from "+filepath.Join(state, "mcpsh", "tokens"))
	if entries, _ := os.ReadDir(filepath.Join(state, "mcpsh", "tokens")); len(entries) != 0 {
		t.Errorf("token files left: %v", entries)
	}
	r, _ = run(t, e, "logout", "--url", f.URL())
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "no login was stored for "+f.URL())
	r, _ = run(t, authEnv(t, state, ""), "call", "--url", f.URL(), "whoami")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "run mcpsh login")
}

// TestServersLoginStatus: servers says who is logged in and until when,
// in text and JSON, and never shows a token or the client secret.
func TestServersLoginStatus(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.ClientSecret = "pre-secret-Tg6Yh3"
	state := t.TempDir()
	e := authEnv(t, state, oauthfake.CurlBrowser(t))
	e.vars["PRE_SECRET"] = f.ClientSecret
	cfg := writeConfig(t, sprintf(`{"mcpServers": {
		"prot": {"type": "http", "url": %q, "clientId": "pre", "clientSecret": "${PRE_SECRET}", "scopes": "read"},
		"plain": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}`, f.URL()))
	r, _ := run(t, e, "servers", "--config", cfg)
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "prot\thttp\t"+f.URL()+"\tlogin needed\n", "plain\thttp\thttp://127.0.0.1:9/mcp\t\n")

	login, _ := run(t, e, "login", "--config", cfg, "-s", "prot")
	wantCode(t, login, ExitOK)
	seen := f.Seen()
	if len(seen.Registrations) != 0 || seen.Authorizes[0].Get("client_id") != "pre" || seen.Authorizes[0].Get("scope") != "read" {
		t.Errorf("login did not use the configured client: %d registrations, %v", len(seen.Registrations), seen.Authorizes)
	}
	r, _ = run(t, e, "servers", "--config", cfg)
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "prot\thttp\t"+f.URL()+"\tlogged in (token expires in 59 min)\n")
	j, _ := run(t, e, "servers", "--config", cfg, "--json")
	wantCode(t, j, ExitOK)
	var list []struct {
		Name  string
		OAuth map[string]any
		Login struct{ Status, Store, Expires string }
	}
	if err := json.Unmarshal([]byte(j.out), &list); err != nil {
		t.Fatal(err)
	}
	if list[1].Name != "prot" || list[1].Login.Status != "logged-in" || list[1].Login.Expires == "" ||
		!strings.HasPrefix(list[1].Login.Store, filepath.Join(state, "mcpsh", "tokens")) || list[1].OAuth["clientSecret"] != true {
		t.Errorf("prot in --json: %+v", list[1])
	}
	if list[0].Login.Status != "none" {
		t.Errorf("plain in --json: %+v", list[0])
	}
	noSecrets(t, f, []string{f.ClientSecret}, map[string]string{"login stdout": login.out, "login stderr": login.errOut,
		"servers": r.out, "servers --json": j.out})
}

// TestLoginWithFlags: a pre-registered client given on the command line;
// its secret never shows, not even in an error.
func TestLoginWithFlags(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.ClientSecret = "pre-secret-Tg6Yh3"
	e := authEnv(t, t.TempDir(), oauthfake.CurlBrowser(t))
	r, _ := run(t, e, "login", "--url", f.URL(), "--client-id", "pre", "--client-secret", f.ClientSecret, "--scope", "read", "--scope", "write admin")
	wantCode(t, r, ExitOK)
	seen := f.Seen()
	// A set: go-sdk's auth handler unions scopes through a map, so the order
	// it sends them in varies from run to run.
	asked := strings.Fields(seen.Authorizes[0].Get("scope"))
	slices.Sort(asked)
	if len(seen.Registrations) != 0 || seen.Authorizes[0].Get("client_id") != "pre" || strings.Join(asked, " ") != "admin read write" {
		t.Errorf("registrations %d, authorize %v", len(seen.Registrations), seen.Authorizes)
	}
	bad, _ := run(t, e, "login", "--url", f.URL(), "--client-id", "pre", "--client-secret", "wrong-secret-Zx9Cv8")
	wantCode(t, bad, ExitFailure)
	noSecrets(t, f, []string{f.ClientSecret, "wrong-secret-Zx9Cv8"}, map[string]string{"stdout": r.out + bad.out, "stderr": r.errOut + bad.errOut})
}

// TestLoginNotAsked: a server that lets mcpsh in without a token stores nothing.
func TestLoginNotAsked(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	r, _ := run(t, authEnv(t, t.TempDir(), oauthfake.CurlBrowser(t)), "login", "--url", f.OpenURL())
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "did not ask for a login")
	if r.out != "" {
		t.Errorf("stdout: %q", r.out)
	}
}

func TestLoginMistakes(t *testing.T) {
	t.Parallel()
	e := authEnv(t, t.TempDir(), "")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"login", "--url", "http://127.0.0.1:9/mcp", "--client-secret", "s3cr3t-Xy"}, "--client-secret: a client secret needs a client ID"},
		{[]string{"login", "--url", "http://127.0.0.1:9/mcp", "--client-metadata-url", "http://x/c.json"}, "--client-metadata-url:"},
		{[]string{"login", "--url", "http://127.0.0.1:9/mcp", "--grant", "password"}, `--grant: unknown grant "password"`},
		{[]string{"login", "--sse", "http://127.0.0.1:9/sse"}, "login is for streamable HTTP servers"},
		{[]string{"logout", "--demo"}, "logout is for streamable HTTP servers"},
		{[]string{"login", "--url", "http://127.0.0.1:9/mcp", "extra"}, "login takes no arguments"},
	}
	for _, tt := range tests {
		r, _ := run(t, e, tt.args...)
		wantCode(t, r, ExitUsage)
		contains(t, "stderr", r.errOut, tt.want)
		if strings.Contains(r.errOut, "s3cr3t-Xy") {
			t.Errorf("%v shows the secret: %s", tt.args, r.errOut)
		}
	}
	e.vars["MCPSH_TOKEN_STORE"] = "vault"
	r, _ := run(t, e, "logout", "--url", "http://127.0.0.1:9/mcp")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, `$MCPSH_TOKEN_STORE="vault"`)
}
