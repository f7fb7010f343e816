package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/policy"
)

func TestFlakyToolShowsItsRetries(t *testing.T) {
	t.Parallel()
	logPath := filepath.Join(t.TempDir(), "session.jsonl")
	r, srv := run(t, env{}, "call", "--demo", "flaky_sync", "--log", logPath)
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "flaky_sync: attempt 1 of 4 failed (server error: sync backend temporarily unavailable",
		"attempt 2 of 4 failed", "retrying in")
	if srv.Executions("flaky_sync") != 3 {
		t.Errorf("executions %d, want 3", srv.Executions("flaky_sync"))
	}
	r, _ = run(t, env{}, "log", logPath, "--json")
	wantCode(t, r, ExitOK)
	var e map[string]any
	if err := json.Unmarshal([]byte(lines(r.out)[0]), &e); err != nil {
		t.Fatal(err)
	}
	attempts := e["attempts"].([]any)
	if len(attempts) != 3 || attempts[0].(map[string]any)["failure"] != "server_error" || attempts[0].(map[string]any)["waitMs"] == nil {
		t.Errorf("attempts %v", attempts)
	}
}

func TestEveryCallIsLoggedAndLogReadsIt(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	script := "add_note title=x token=sk-abcdefghijklmnopqrstuvwx\npop_note\nweather_forecast city=Oslo\nget_note id=999\n"
	r, _ := run(t, env{stdin: script, vars: vars}, "run", "--demo")
	wantCode(t, r, ExitRefused)
	dir := filepath.Join(home, ".local", "state", "mcpsh", "sessions")
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("log files %v", files)
	}
	b, _ := os.ReadFile(files[0])
	if n := strings.Count(string(b), "\n"); n != 4 {
		t.Fatalf("%d entries, want 4 (refusals too):\n%s", n, b)
	}
	if strings.Contains(string(b), "sk-abcdef") || !strings.Contains(string(b), `"token":"[redacted]"`) {
		t.Errorf("arguments not redacted:\n%s", b)
	}
	if strings.Contains(string(b), `"content"`) {
		t.Error("the log holds result content")
	}

	r, _ = run(t, env{vars: vars}, "log")
	wantCode(t, r, ExitOK)
	contains(t, "log", r.out, "add_note", "refused", "pop_note", "◆ weather_forecast", "tool_error", "approved by policy", "open-world")
	contains(t, "log stderr", r.errOut, "4 calls of 4")
	r, _ = run(t, env{vars: vars}, "log", "--open-world", "--json")
	if ls := lines(r.out); len(ls) != 1 || !strings.Contains(ls[0], "weather_forecast") {
		t.Errorf("--open-world: %q", r.out)
	}
	r, _ = run(t, env{vars: vars}, "log", "--status", "refused")
	contains(t, "refused", r.out, "pop_note")
	if strings.Contains(r.out, "add_note") {
		t.Error("--status refused shows add_note")
	}
	r, _ = run(t, env{vars: vars}, "log", "--tool", "get_*", "--json")
	if ls := lines(r.out); len(ls) != 1 {
		t.Errorf("--tool get_*: %q", r.out)
	}
	r, _ = run(t, env{vars: vars}, "log", "--status", "great")
	wantCode(t, r, ExitUsage)

	// A last line cut short by a crash is skipped with a warning.
	f, _ := os.OpenFile(files[0], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"tool":"half`)
	f.Close()
	r, _ = run(t, env{vars: vars}, "log", files[0])
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "line 5 is cut short")
}

func TestLogFlags(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	r, _ := run(t, env{vars: vars}, "call", "--demo", "list_notes", "--no-log")
	wantCode(t, r, ExitOK)
	if files, _ := filepath.Glob(filepath.Join(home, ".local", "state", "mcpsh", "sessions", "*")); len(files) != 0 {
		t.Errorf("--no-log wrote %v", files)
	}
	p := filepath.Join(t.TempDir(), "l.jsonl")
	run(t, env{}, "call", "--demo", "add_note", "title=secret plan", "--log", p, "--log-args", "none")
	b, _ := os.ReadFile(p)
	if strings.Contains(string(b), "secret plan") || strings.Contains(string(b), `"args"`) {
		t.Errorf("--log-args none kept args: %s", b)
	}
	run(t, env{}, "call", "--demo", "add_note", "title=t", "password=hunter2", "--log", p, "--log-args", "full")
	b, _ = os.ReadFile(p)
	if !strings.Contains(string(b), "hunter2") {
		t.Errorf("--log-args full redacted: %s", b)
	}
	r, _ = run(t, env{}, "call", "--demo", "list_notes", "--log", filepath.Join(p, "under-a-file"))
	wantCode(t, r, ExitUsage)
	r, _ = run(t, env{}, "call", "--demo", "list_notes", "--log-args", "most")
	wantCode(t, r, ExitUsage)
	r, _ = run(t, env{vars: map[string]string{"HOME": t.TempDir()}}, "log")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, "no session logs")
}

// oldSession writes a finished session log into dir as if a process that has
// ended (a process ID that cannot run) wrote it at start, one entry per tool.
func oldSession(t *testing.T, dir string, start time.Time, server string, tools ...string) string {
	t.Helper()
	p := sessionlog.DefaultPath(dir, start, 1<<30)
	w := sessionlog.New(p, sessionlog.ArgsRedact)
	for _, tool := range tools {
		o := &client.Outcome{Time: start, Server: server, Via: "stdio: " + server, Tool: tool, Status: client.StatusOK,
			OpenWorld: strings.HasPrefix(tool, "web_"), Attempts: []client.Attempt{{N: 1}}}
		if err := w.Record(o); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	os.Chtimes(p, start, start)
	return p
}

func jsonEntries(t *testing.T, out string) []sessionlog.Entry {
	t.Helper()
	var es []sessionlog.Entry
	for _, l := range lines(out) {
		if l == "" {
			continue
		}
		var e sessionlog.Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		es = append(es, e)
	}
	return es
}

// TestLogReadsEverySession checks that `mcpsh log` reads every session in the
// state folder, newest first, and that the filters combine across them.
func TestLogReadsEverySession(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	dir := filepath.Join(home, ".local", "state", "mcpsh", "sessions")
	now := time.Now()
	weekAgo := oldSession(t, dir, now.Add(-7*24*time.Hour), "fs", "read_file", "web_fetch")
	dayAgo := oldSession(t, dir, now.Add(-24*time.Hour), "tracker", "web_search", "list_issues")
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a session\n"), 0o600)
	r, _ := run(t, env{vars: vars}, "call", "--demo", "weather_forecast", "city=Oslo")
	wantCode(t, r, ExitOK)

	r, _ = run(t, env{vars: vars}, "log", "--open-world", "--json")
	wantCode(t, r, ExitOK)
	var got []string
	for _, e := range jsonEntries(t, r.out) {
		got = append(got, e.Tool+"@"+e.Session)
	}
	dayID, weekID := sessionlog.IDOf(dayAgo), sessionlog.IDOf(weekAgo)
	if len(got) != 3 || !strings.HasPrefix(got[0], "weather_forecast@") || got[1] != "web_search@"+dayID || got[2] != "web_fetch@"+weekID {
		t.Errorf("--open-world across sessions, newest first: %v", got)
	}

	r, _ = run(t, env{vars: vars}, "log")
	wantCode(t, r, ExitOK)
	contains(t, "log", r.out, "session "+dayID+" · tracker · stdio: tracker", "session "+weekID+" · fs · stdio: fs", "◆ web_fetch", "demo · in-process")
	if i, j := strings.Index(r.out, dayID), strings.Index(r.out, weekID); i < 0 || j < i || strings.Index(r.out, "weather_forecast") > i {
		t.Errorf("sessions not newest first:\n%s", r.out)
	}
	contains(t, "stderr", r.errOut, "5 calls of 5 in 3 sessions")

	r, _ = run(t, env{vars: vars}, "log", "--session", "latest", "--json")
	if es := jsonEntries(t, r.out); len(es) != 1 || es[0].Tool != "weather_forecast" {
		t.Errorf("--session latest: %q", r.out)
	}
	r, _ = run(t, env{vars: vars}, "log", "--session", weekID)
	contains(t, "--session ID", r.out, "read_file", "web_fetch")
	if strings.Contains(r.out, "list_issues") {
		t.Errorf("--session %s shows another session:\n%s", weekID, r.out)
	}
	r, _ = run(t, env{vars: vars}, "log", "--session", "20200101T000000.000Z-1")
	wantCode(t, r, ExitUsage)
	contains(t, "unknown session", r.errOut, "no such session", dayID, weekID)

	r, _ = run(t, env{vars: vars}, "log", "--since", "2h", "--json")
	if es := jsonEntries(t, r.out); len(es) != 1 || es[0].Tool != "weather_forecast" {
		t.Errorf("--since 2h: %q", r.out)
	}
	r, _ = run(t, env{vars: vars}, "log", "--since", "2d", "-s", "t*", "--tool", "list_*", "--json")
	if es := jsonEntries(t, r.out); len(es) != 1 || es[0].Tool != "list_issues" {
		t.Errorf("--since 2d -s t* --tool list_*: %q", r.out)
	}
	r, _ = run(t, env{vars: vars}, "log", "--server", "fs", "--status", "ok")
	contains(t, "--server fs", r.out, "read_file", "web_fetch")
	if strings.Contains(r.out, "tracker") || strings.Contains(r.out, "weather") {
		t.Errorf("--server fs shows other servers:\n%s", r.out)
	}
	for _, bad := range [][]string{{"--since", "yesterday"}, {"--server", "["}, {"--session", "latest", weekAgo}, {"--as-script", "--json"}} {
		r, _ = run(t, env{vars: vars}, append([]string{"log"}, bad...)...)
		wantCode(t, r, ExitUsage)
	}
	// The FILE form still reads one file, wherever it is.
	r, _ = run(t, env{vars: vars}, "log", weekAgo, "--json")
	if es := jsonEntries(t, r.out); len(es) != 2 || es[0].Session != weekID {
		t.Errorf("log FILE: %q", r.out)
	}
}

// TestLogShowsServerTextSafely checks that what a server named its tool or
// said in its error reaches the terminal without its escapes, and --json
// with them escaped.
func TestLogShowsServerTextSafely(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := filepath.Join(home, ".local", "state", "mcpsh", "sessions")
	p := sessionlog.DefaultPath(dir, time.Now(), 1<<30)
	w := sessionlog.New(p, sessionlog.ArgsRedact)
	w.Record(&client.Outcome{Time: time.Now(), Server: "evil\x1b]0;owned\x07", Via: "x\x1b[2J", Tool: "rm\x1b[31m", Status: client.StatusFailed, Error: "bad\u202e"})
	w.Close()
	r, _ := run(t, env{vars: map[string]string{"HOME": home}}, "log")
	if strings.ContainsAny(r.out, "\x1b\x07\u202e") {
		t.Errorf("escapes reached the terminal: %q", r.out)
	}
	r, _ = run(t, env{vars: map[string]string{"HOME": home}}, "log", "--json")
	if strings.ContainsAny(r.out, "\x1b\x07\u202e") || !strings.Contains(r.out, `\u001b`) {
		t.Errorf("--json: %q", r.out)
	}
}

// TestLogSyncsBeforeDangerousCalls checks when the session log is synced
// ahead of the call: before a destructive or open-world call is sent, with
// every earlier entry already written, and not before the others.
func TestLogSyncsBeforeDangerousCalls(t *testing.T) {
	t.Parallel()
	type sync struct {
		tool    string
		written int // entries in the file when it synced
	}
	var syncs []sync
	syncLog := func(w *sessionlog.Writer, o *client.Outcome) error {
		es, _, _ := sessionlog.ReadFile(w.Path())
		syncs = append(syncs, sync{o.Tool, len(es)})
		return w.Sync()
	}
	p := filepath.Join(t.TempDir(), "s.jsonl")
	script := "list_notes\nget_note id=1\nweather_forecast city=Oslo\nadd_note title=x\ndelete_note id=2\npop_note\n"
	r, _ := run(t, env{stdin: script, syncLog: syncLog}, "run", "--demo", "--yes", "--log", p)
	wantCode(t, r, ExitOK)
	want := []sync{{"weather_forecast", 2}, {"delete_note", 4}, {"pop_note", 5}}
	if fmt.Sprint(syncs) != fmt.Sprint(want) {
		t.Errorf("synced before %v, want %v", syncs, want)
	}
	for _, tt := range []struct {
		o    client.Outcome
		want bool
	}{
		{client.Outcome{Class: policy.ClassReadOnly}, false},
		{client.Outcome{Class: policy.ClassWrite}, false},
		{client.Outcome{Class: policy.ClassDestructive}, true},
		{client.Outcome{Class: policy.ClassReadOnly, OpenWorld: true}, true},
	} {
		if got := syncsFirst(&tt.o); got != tt.want {
			t.Errorf("syncsFirst(%s, open-world %v) = %v", tt.o.Class, tt.o.OpenWorld, got)
		}
	}
}

// TestOpenWorldLog checks that open-world calls, and only they, also go to
// openworld.jsonl in the state folder, --log or not, and nothing with --no-log.
func TestOpenWorldLog(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	owPath := filepath.Join(home, ".local", "state", "mcpsh", "openworld.jsonl")
	run(t, env{vars: vars}, "call", "--demo", "weather_forecast", "city=Oslo")
	run(t, env{vars: vars}, "call", "--demo", "list_notes")
	logFile := filepath.Join(t.TempDir(), "mine.jsonl")
	r, _ := run(t, env{vars: vars}, "call", "--demo", "send_message", "to=a@example.com", "subject=hi", "--log", logFile)
	run(t, env{vars: vars}, "call", "--demo", "weather_forecast", "city=Rome", "--no-log")
	entries, warnings, err := sessionlog.ReadFile(owPath)
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Tool)
	}
	if strings.Join(got, ",") != "weather_forecast,send_message" {
		t.Fatalf("open-world log holds %v\nlast stderr: %s", got, r.errOut)
	}
	sessions, _ := sessionlog.Sessions(filepath.Join(home, ".local", "state", "mcpsh", "sessions"))
	if len(sessions) != 2 || entries[0].Session != sessions[1].ID {
		t.Errorf("first entry's session %q, sessions %v", entries[0].Session, sessions)
	}
	if entries[1].Session != logFile {
		t.Errorf("a --log session is named by its file: %q", entries[1].Session)
	}
	if fi, _ := os.Stat(owPath); fi.Mode().Perm() != 0o600 {
		t.Errorf("open-world log mode %v", fi.Mode().Perm())
	}
	// `mcpsh log FILE` reads it, each entry naming its session.
	r, _ = run(t, env{vars: vars}, "log", owPath)
	contains(t, "log openworld.jsonl", r.out, "session "+sessions[1].ID, "session "+logFile, "◆ send_message")
}

// TestRetention checks that starting a session prunes what the config's
// "log" key does not keep, never the new session, and that a bad value is
// named by file and key.
func TestRetention(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	dir := filepath.Join(home, ".local", "state", "mcpsh", "sessions")
	now := time.Now()
	ancient := oldSession(t, dir, now.Add(-60*24*time.Hour), "fs", "a")
	older := oldSession(t, dir, now.Add(-3*time.Hour), "fs", strings.Repeat("b", 3000))
	newer := oldSession(t, dir, now.Add(-2*time.Hour), "fs", "c")
	cfg := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(cfg, []byte(`{"mcpServers": {}, "log": {"maxAge": "30d", "maxSize": "3KB"}}`), 0o600)
	r, _ := run(t, env{vars: vars}, "call", "--demo", "list_notes", "--config", cfg)
	wantCode(t, r, ExitOK)
	sessions, _ := sessionlog.Sessions(dir)
	var left []string
	for _, s := range sessions {
		left = append(left, s.Path)
	}
	if len(left) != 2 || left[1] != newer {
		t.Errorf("left %v; want the new session and %s (%s too old, %s over 3KB)", left, newer, ancient, older)
	}

	os.WriteFile(cfg, []byte(`{"mcpServers": {"x": {"command": "x"}}, "log": {"maxAge": "3x"}}`), 0o600)
	r, _ = run(t, env{vars: vars}, "call", "--demo", "list_notes", "--config", cfg)
	// The file's top-level policy rules (and log.results) would apply to
	// --demo too, so a file that cannot be read stops the call before the
	// log is opened or pruned, as it stops -s below.
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, cfg+`: log.maxAge: "3x" is not a duration`)
	r, _ = run(t, env{vars: vars}, "call", "-s", "x", "list_notes", "--config", cfg)
	wantCode(t, r, ExitUsage)
}
