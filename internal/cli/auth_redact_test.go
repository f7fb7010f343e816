package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/internal/testing/oauthfake"
)

// TestCredentialsAServerEchoesShowNowhere: a server quotes the access token
// (without "Bearer"), the refresh token and the client secret mcpsh
// registered with, in a request for input (which --elicit answers, saying
// so on stderr), in a progress notification, and in the JSON-RPC error that
// ends the call. The fake's tokens expire within oauth2's margin, so every
// request renews them: a run holds the stored token it starts from and every
// token it gets after, and none of them shows on stderr, in --json, in the
// session log, in openworld.jsonl or in the --trace file, while the server's
// words themselves do. (The fake quotes tokens earlier runs held too; a run
// cannot know those, and they are not checked.)
func TestCredentialsAServerEchoesShowNowhere(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.ExpiresIn = 5
	f.RegisterSecret = "dyn-secret-Rk5Tq2"
	state := t.TempDir()
	login, _ := run(t, authEnv(t, state, oauthfake.CurlBrowser(t)), "login", "--url", f.URL())
	wantCode(t, login, ExitOK)

	const echoed = "upstream refused the credentials it was handed: " + redact.Marker
	sessions := filepath.Join(state, "mcpsh", "sessions", "*.jsonl")
	for i, json := range []bool{false, true} {
		trace := filepath.Join(t.TempDir(), "trace.jsonl")
		args := []string{"call", "--url", f.URL(), "leak", "--retries", "2", "--elicit", "defaults", "--trace", trace}
		where := "stderr"
		if json {
			args, where = append(args, "--json"), "--json stdout"
		}
		before, logsBefore := f.Seen().Issued, glob(t, sessions)
		r, _ := run(t, authEnv(t, state, ""), args...)
		wantCode(t, r, ExitFailure)
		held := f.Seen().Issued[len(before)-2:]
		if len(held) < 6 {
			t.Fatalf("the tokens did not change under the session: %d held", len(held))
		}
		logs := slices.DeleteFunc(glob(t, sessions), func(p string) bool { return slices.Contains(logsBefore, p) })
		if len(logs) != 1 {
			t.Fatalf("session logs written by the run: %v", logs)
		}
		sessionLog, _ := os.ReadFile(logs[0])
		openWorld, _ := os.ReadFile(filepath.Join(state, "mcpsh", "openworld.jsonl"))
		owLines := strings.Split(strings.TrimSpace(string(openWorld)), "\n")
		if len(owLines) != i+1 {
			t.Fatalf("openworld.jsonl has %d lines after run %d", len(owLines), i+1)
		}
		traced, _ := os.ReadFile(trace)
		outputs := map[string]string{"stderr": r.errOut, "stdout": r.out, "session log": string(sessionLog), "openworld.jsonl": owLines[i],
			"trace": string(traced)}
		if json {
			outputs["--json stdout"] = r.out
		}
		for _, what := range []string{where, "session log", "openworld.jsonl", "trace"} {
			if !strings.Contains(outputs[what], echoed) {
				t.Errorf("%s does not carry the server's error:\n%s", what, outputs[what])
			}
		}
		if !strings.Contains(r.errOut, `asked for input: "`+echoed) {
			t.Errorf("stderr does not quote the server's request for input:\n%s", r.errOut)
		}
		if !strings.Contains(string(traced), `"method":"notifications/progress"`) {
			t.Errorf("the trace holds no progress:\n%s", traced)
		}
		for what, text := range outputs {
			for _, secret := range append(held, f.RegisterSecret) {
				if strings.Contains(text, secret) {
					t.Errorf("run %d: %s shows a credential (%s…):\n%s", i+1, what, secret[:5], text)
				}
			}
		}
	}
}

func glob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
