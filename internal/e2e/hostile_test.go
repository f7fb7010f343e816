package e2e

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The hostile-server suite: the built binary against internal/testing/fixture's raw
// JSON-RPC servers, over stdio and HTTP. What reached the server is read from
// the fixture's state files. Each test here failed on mcpsh before the
// defence it names (see the issue note for the run against the old binary).

// fixtureCmd is the argv of a stdio fixture server playing scenario.
func fixtureCmd(scenario string, state string) []string {
	return []string{"--", fixtureBin, "-scenario", scenario, "-state", state}
}

// fixtureHTTP starts a fixture server over HTTP on 127.0.0.1 and returns its
// URL; the server ends with the test.
func fixtureHTTP(t *testing.T, scenario, state string, flags ...string) string {
	t.Helper()
	return startFixtureHTTP(t, scenario, state, "127.0.0.1:0", flags...).url
}

type fixtureProc struct {
	cmd *exec.Cmd
	url string
}

func startFixtureHTTP(t *testing.T, scenario, state, addr string, flags ...string) *fixtureProc {
	t.Helper()
	cmd := command(t, fixtureBin, append([]string{"-scenario", scenario, "-state", state, "-http", addr}, flags...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening ") {
		t.Fatalf("fixture server did not start: %q %v", line, err)
	}
	return &fixtureProc{cmd: cmd, url: "http://" + strings.TrimSpace(strings.TrimPrefix(line, "listening ")) + "/mcp"}
}

// noLog keeps the session log out of tests that do not look at it.
var noLog = "--no-log"

func TestHostileScriptIsDecidedOnTheListingAfterListChanged(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := mcpsh(t, opts{stdin: "trigger\nget_thing\n"}, append([]string{"run", noLog}, fixtureCmd("redeclare", state)...)...)
	wantCode(t, r, 4)
	if n := fixture.CountIn(state, "executions", "get_thing"); n != 0 {
		t.Fatalf("get_thing ran %d times after the server re-declared it destructive\nstderr:\n%s", n, r.errOut)
	}
	contains(t, "stdout", r.out, "[line 2]", "refused")
	contains(t, "stderr", r.errOut, "readOnlyHint true → false")
}

func TestHostileRestartIsAskedAgainBeforeARetry(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "get_thing"}, fixtureCmd("redeclare-restart", state)...)...)
	wantCode(t, r, 1)
	if n := fixture.CountIn(state, "executions", "get_thing"); n != 1 {
		t.Fatalf("get_thing ran %d times; the restarted server declares it destructive, so it must not be replayed\nstderr:\n%s", n, r.errOut)
	}
	contains(t, "stderr", r.errOut, "not retried: the server's hints changed")
}

func TestHostileContradictoryHintsTakeTheStricterReading(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "scan"}, fixtureCmd("conflict", state)...)...)
	wantCode(t, r, 4)
	if fixture.CountIn(state, "executions", "scan") != 0 {
		t.Fatal("a tool declared both read-only and destructive ran unasked")
	}
	r = mcpsh(t, opts{}, append([]string{"tools", "--json"}, fixtureCmd("conflict", state)...)...)
	wantCode(t, r, 0)
	var tools []struct {
		Class    string `json:"class"`
		ReadOnly bool   `json:"readOnly"`
		Conflict bool   `json:"conflict"`
	}
	if err := json.Unmarshal([]byte(r.out), &tools); err != nil || len(tools) != 1 {
		t.Fatalf("tools --json: %v\n%s", err, r.out)
	}
	if tools[0].Class != "destructive" || tools[0].ReadOnly || !tools[0].Conflict {
		t.Errorf("tools --json: %+v, want destructive, not read-only, conflict", tools[0])
	}
}

func TestHostileDuplicateNamesTakeTheStrictestDefinition(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "purge"}, fixtureCmd("duplicates", state)...)...)
	wantCode(t, r, 4)
	contains(t, "stderr", r.errOut, "tool purge is listed 2 times: the strictest reading")
	if fixture.CountIn(state, "executions", "purge") != 0 {
		t.Fatal("the lenient first definition of purge decided")
	}
}

func TestHostileDenyStarCoversNamesWithASlash(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "config.json")
	body, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fs": map[string]any{
		"command": fixtureBin, "args": []string{"-scenario", "slashes", "-state", state},
		"policy": map[string]any{"deny": []string{"*"}},
	}}})
	os.WriteFile(cfg, body, 0o600)
	r := mcpsh(t, opts{}, "call", noLog, "--config", cfg, "-s", "fs", "fs/delete_file", "--yes")
	wantCode(t, r, 4)
	contains(t, "stderr", r.errOut, `denied by rule "*"`)
	if fixture.CountIn(state, "executions", "fs/delete_file") != 0 {
		t.Fatal("a tool denied by * ran")
	}
}

func TestHostileRecursiveSchemasNeitherCrashNorLoseTheLog(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	log := filepath.Join(t.TempDir(), "log.jsonl")
	r := mcpsh(t, opts{}, append([]string{"tools"}, fixtureCmd("recursive", state)...)...)
	wantCode(t, r, 0)
	r = mcpsh(t, opts{}, append([]string{"call", "--log", log, "walk"}, fixtureCmd("recursive", state)...)...)
	wantCode(t, r, 0)
	contains(t, "stderr", r.errOut, "walk: input schema")
	r = mcpsh(t, opts{}, append([]string{"call", "--log", log, "loop"}, fixtureCmd("recursive", state)...)...)
	wantCode(t, r, 0)
	r = mcpsh(t, opts{}, append([]string{"audit", "--json", "--fail-on", "none"}, fixtureCmd("recursive", state)...)...)
	wantCode(t, r, 0)
	contains(t, "audit", r.out, `"schema-invalid"`)
	b, _ := os.ReadFile(log)
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Fatalf("the log has %d entries, want 2:\n%s", n, b)
	}
}

// hostileBytes reports the first byte or rune a terminal would act on: ESC,
// BEL, another C0 control but newline and tab, a C1 control, or a bidi override.
func hostileBytes(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x061c:
			return strings.ToValidUTF8(s[max(i-30, 0):min(i+30, len(s))], "?")
		}
	}
	return ""
}

func TestHostileTextNeverReachesStderr(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	log := filepath.Join(t.TempDir(), "log.jsonl")
	target := fixtureCmd("hostile", state)
	runs := [][]string{
		{"tools"},
		{"tools", "--json"},
		{"call", "--log", log, "say", "n=2"},
		{"call", "--log", log, "say", "--json"},
		{"call", "--log", log, "say", "mode=nope"},
		{"call", "--log", log, "say", "n=9"},
		{"call", "--log", log, "say", "--example", "1"},
		{"call", "--log", log, "explode", "--retries", "1"},
		{"call", "--log", log, "shout"},
		{"call", "--log", log, "evi"},
		{"call", "--log", log, "bad_hint"},
		{"call", "--log", log, "--server-stderr", "say"},
		{"audit", "--fail-on", "none"},
		{"audit", "--json", "--fail-on", "none"},
		{"audit", "--format", "markdown", "--fail-on", "none"},
	}
	for _, args := range runs {
		r := mcpsh(t, opts{}, append(args, target...)...)
		if bad := hostileBytes(r.errOut); bad != "" {
			t.Errorf("mcpsh %s: stderr carries a control from the server near %q\n%s", strings.Join(args, " "), bad, r.errOut)
		}
		if args[len(args)-1] == "--json" || (len(args) > 1 && args[1] == "--json") {
			if bad := hostileBytes(r.out); bad != "" {
				t.Errorf("mcpsh %s: JSON on stdout carries a raw control near %q", strings.Join(args, " "), bad)
			}
		}
	}
	// mcpsh's own words after the server's unfinished escape survive.
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "explode", "--retries", "1"}, target...)...)
	contains(t, "stderr", r.errOut, "boom", "and more", "gave up after 1 attempt")

	script := filepath.Join(t.TempDir(), "calls.mcpsh")
	os.WriteFile(script, []byte("say\nexplode\nshout\n"), 0o600)
	for _, args := range [][]string{{"run", "--log", log, "--retries", "1", script}, {"run", noLog, "--json", "--retries", "1", script}} {
		r := mcpsh(t, opts{}, append(args, target...)...)
		if bad := hostileBytes(r.errOut); bad != "" {
			t.Errorf("mcpsh %s: stderr near %q", strings.Join(args, " "), bad)
		}
	}
	for _, args := range [][]string{{"log", log}, {"log", log, "--json"}} {
		r := mcpsh(t, opts{}, args...)
		wantCode(t, r, 0)
		if bad := hostileBytes(r.out + r.errOut); bad != "" {
			t.Errorf("mcpsh %s: output near %q", strings.Join(args, " "), bad)
		}
	}
	// Servers that fail to start, to initialize, or to list.
	for _, sc := range []string{"hostile-exit", "hostile-init", "hostile-list"} {
		r := mcpsh(t, opts{}, append([]string{"tools"}, fixtureCmd(sc, state)...)...)
		wantCode(t, r, 1)
		if bad := hostileBytes(r.errOut); bad != "" {
			t.Errorf("%s: stderr near %q\n%s", sc, bad, r.errOut)
		}
	}
	r = mcpsh(t, opts{}, append([]string{"tools"}, fixtureCmd("hostile-exit", state)...)...)
	contains(t, "the dying server's last words", r.errOut, "fatal:", "bad", "key")
}

func TestHostileStdoutNoiseIsSkippedWithAWarning(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "read"}, fixtureCmd("noisy", state)...)...)
	wantCode(t, r, 0)
	contains(t, "stdout", r.out, "ran read")
	contains(t, "stderr", r.errOut, "not JSON-RPC: Starting server... ready", "not JSON-RPC: handling read")

	r = mcpsh(t, opts{}, append([]string{"call", noLog, "write"}, fixtureCmd("truncated", state)...)...)
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "broken JSON-RPC message on stdout")
}

func TestHostileOversizedAnswers(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	for _, flags := range [][]string{nil, {"-sse"}} {
		url := fixtureHTTP(t, "oversized", state, flags...)
		r := mcpsh(t, opts{}, "call", noLog, "--url", url, "big")
		wantCode(t, r, 1)
		contains(t, "stderr", r.errOut, "larger than 32 MiB")
		if strings.Contains(r.errOut, "HTTP 200") {
			t.Errorf("an oversized answer is reported as HTTP 200:\n%s", r.errOut)
		}
	}
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "big"}, fixtureCmd("oversized", state)...)...)
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "larger than 32 MiB")
	if n := fixture.CountIn(state, "executions", "big"); n != 3 {
		t.Errorf("big ran %d times over 3 calls: an oversized answer must not be retried", n)
	}
}

func TestHostileForgottenSessionStartsANewOne(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	url := fixtureHTTP(t, "plain", state, "-forget-after", "2")
	r := mcpsh(t, opts{}, "call", noLog, "--url", url, "read")
	wantCode(t, r, 0)
	if n := fixture.CountIn(state, "executions", "read"); n != 1 {
		t.Errorf("read ran %d times", n)
	}
}

func TestHostileAnswerOnAResumedStream(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	url := fixtureHTTP(t, "plain", state, "-resume")
	r := mcpsh(t, opts{}, "call", noLog, "--url", url, "write")
	wantCode(t, r, 0)
	contains(t, "stdout", r.out, "ran write")
}

func TestHostileRedirectGetsNoCredentials(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	url := fixtureHTTP(t, "plain", state)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, url, http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	r := mcpsh(t, opts{}, "call", noLog, "--url", redirect.URL+"/mcp", "--header", "Authorization: Bearer s3cret-token-123", "read")
	wantCode(t, r, 0)
	seen := strings.Join(fixture.Lines(state, "headers"), "\n")
	if strings.Contains(seen, "s3cret-token-123") {
		t.Fatalf("the redirect target received the bearer token:\n%s", seen)
	}
}

func TestHostileLegacySSEKeepsItsStream(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return demo.New().MCP() }, nil))
	defer ts.Close()
	for i := 0; i < 8; i++ {
		r := mcpsh(t, opts{}, "call", noLog, "--json", "--sse", ts.URL, "get_note", "id=1")
		wantCode(t, r, 0)
		var o struct{ Attempts []any }
		json.Unmarshal([]byte(r.out), &o)
		if len(o.Attempts) != 1 {
			t.Fatalf("call %d took %d attempts:\n%s", i+1, len(o.Attempts), r.errOut)
		}
	}
}

func TestHostileCancellationReachesTheServer(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	// A timeout: the server hears of it before mcpsh exits.
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "wait", "--timeout", "300ms", "--retries", "1"}, fixtureCmd("slow", state)...)...)
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "(the server was told to cancel)")
	if n := len(fixture.Lines(state, "cancelled")); n != 1 {
		t.Errorf("the server noted %d cancellations before mcpsh exited, want 1", n)
	}

	// Ctrl-C, once the call is known to be on the server.
	cmd := command(t, mcpshBin, append([]string{"call", noLog, "wait_write"}, fixtureCmd("slow", state)...)...)
	p := start(t, cmd)
	deadline := time.Now().Add(30 * time.Second)
	for fixture.CountIn(state, "executions", "wait_write") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("wait_write never reached the server")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if code := p.wait(t); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, p.errOut.String())
	}
	contains(t, "stderr", p.errOut.String(), "cancelled by the user (the server was told)")
	if n := len(fixture.Lines(state, "cancelled")); n != 2 {
		t.Errorf("the server noted %d cancellations, want 2", n)
	}

	// A server that refuses the cancellation is not said to have been told.
	url := fixtureHTTP(t, "slow", state, "-reject-cancel")
	r = mcpsh(t, opts{}, "call", noLog, "--url", url, "wait", "--timeout", "300ms", "--retries", "1")
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "could not tell the server")
}

func TestHostileServerThatRestartsIsWaitedFor(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	first := startFixtureHTTP(t, "restartable", state, "127.0.0.1:0")
	addr := strings.TrimSuffix(strings.TrimPrefix(first.url, "http://"), "/mcp")
	call := start(t, command(t, mcpshBin, "call", noLog, "--url", first.url, "slow_read", "--retry-max", "20s"))
	deadline := time.Now().Add(30 * time.Second)
	for fixture.CountIn(state, "executions", "slow_read") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("slow_read never reached the server")
		}
		time.Sleep(10 * time.Millisecond)
	}
	first.cmd.Process.Kill()
	first.cmd.Wait()
	time.Sleep(time.Second) // the outage mcpsh must ride out
	startFixtureHTTP(t, "restartable", state, addr)
	if code := call.wait(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, call.errOut.String())
	}
	contains(t, "stderr", call.errOut.String(), "reconnecting: attempt 1 failed")
	if n := fixture.CountIn(state, "executions", "slow_read"); n != 2 {
		t.Errorf("slow_read ran %d times, want 2 (once on each server)", n)
	}
}

func TestHostileSecretsStayOutOfTheLogAndTheMessages(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	log := filepath.Join(t.TempDir(), "log.jsonl")
	const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	const key = "k3y-Very-Secret-Value"
	url := fixtureHTTP(t, "plain", state)
	withSecrets := strings.Replace(url, "http://", "http://me:hunter2pass@", 1) + "?api_key=" + key

	// A secret in the URL: not in the log's via, not in an error.
	r := mcpsh(t, opts{}, "call", "--log", log, "--url", withSecrets, "read",
		`note=use Authorization: Bearer `+token+` here`)
	wantCode(t, r, 0)
	dead := "http://me:hunter2pass@127.0.0.1:1/mcp?api_key=" + key
	r2 := mcpsh(t, opts{}, "call", "--log", log, "--url", dead, "read")
	wantCode(t, r2, 1)

	// ${VAR} values in a configured server's args, echoed by the server as it dies.
	cfg := filepath.Join(t.TempDir(), "config.json")
	body, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"gh": map[string]any{
		"command": "sh", "args": []string{"-c", `echo "bad token $1" >&2; exit 1`, "x", "${GH_TOKEN}"},
	}}})
	os.WriteFile(cfg, body, 0o600)
	env := []string{"GH_TOKEN=" + token}
	r3 := mcpsh(t, opts{env: env}, "call", "--log", log, "--config", cfg, "-s", "gh", "anything")
	wantCode(t, r3, 1)
	r4 := mcpsh(t, opts{env: env}, "servers", "--config", cfg)
	r5 := mcpsh(t, opts{env: env}, "servers", "--json", "--config", cfg)

	b, _ := os.ReadFile(log)
	for what, text := range map[string]string{
		"the session log": string(b), "stderr of the call": r.errOut, "the connect error": r2.errOut,
		"the dying server's error": r3.errOut, "servers": r4.out, "servers --json": r5.out,
	} {
		for _, secret := range []string{token, key, "hunter2pass"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s shows %q:\n%s", what, secret, text)
			}
		}
	}
	contains(t, "the dying server's error", r3.errOut, "bad token [redacted]")
	contains(t, "servers", r4.out, "${GH_TOKEN}")
}
