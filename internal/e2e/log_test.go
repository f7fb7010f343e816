package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// stateEnv gives a test its own state folder, so its sessions are the only
// ones `mcpsh log` sees.
func stateEnv(t *testing.T) (env []string, sessions, state string) {
	state = t.TempDir()
	return []string{"XDG_STATE_HOME=" + state}, filepath.Join(state, "mcpsh", "sessions"), filepath.Join(state, "mcpsh")
}

// logLine is what `mcpsh log --json` prints: an entry with its session.
type logLine struct {
	Session   string          `json:"session"`
	Tool      string          `json:"tool"`
	Server    string          `json:"server"`
	OpenWorld bool            `json:"openWorld"`
	Status    string          `json:"status"`
	Args      json.RawMessage `json:"args"`
}

func ndjson(t *testing.T, out string) []logLine {
	t.Helper()
	var ls []logLine
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var e logLine
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("not NDJSON: %q (%v)", l, err)
		}
		ls = append(ls, e)
	}
	return ls
}

// fabricated writes a session log as an ended mcpsh (a process ID no
// system gives) would have left it, last written at mtime.
func fabricated(t *testing.T, dir string, start, mtime time.Time, content string) string {
	t.Helper()
	os.MkdirAll(dir, 0o700)
	p := sessionlog.DefaultPath(dir, start, 999999999)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, mtime, mtime)
	return p
}

func entryJSON(t *testing.T, at time.Time, server, tool string, openWorld bool) string {
	b, err := json.Marshal(map[string]any{"time": at, "server": server, "via": "stdio: " + server, "tool": tool, "status": "ok", "openWorld": openWorld, "attempts": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// TestLogAcrossSessions makes five calls, each its own mcpsh process and so
// its own session, and reads them back together: the issue was that `mcpsh
// log --open-world` after five calls showed only the last session's.
func TestLogAcrossSessions(t *testing.T) {
	t.Parallel()
	env, sessions, state := stateEnv(t)
	calls := [][]string{
		{"weather_forecast", "city=Oslo"},
		{"list_notes"},
		{"send_message", "to=ana@example.com", "subject=Lunch?", "--yes"},
		{"get_note", "id=1"},
		{"weather_forecast", "city=Rome"},
	}
	for _, c := range calls {
		wantCode(t, mcpsh(t, opts{env: env}, append([]string{"call", "--demo"}, c...)...), 0)
	}
	ss, err := sessionlog.Sessions(sessions)
	if err != nil || len(ss) != 5 {
		t.Fatalf("sessions %v %v, want 5", ss, err)
	}
	// Older sessions: one three days ago, one an hour ago on another server.
	now := time.Now()
	threeDays := fabricated(t, sessions, now.Add(-72*time.Hour), now.Add(-72*time.Hour), entryJSON(t, now.Add(-72*time.Hour), "fs", "fetch_url", true))
	other := fabricated(t, sessions, now.Add(-time.Hour), now.Add(-time.Hour), entryJSON(t, now.Add(-time.Hour), "tracker", "web_search", true))

	r := mcpsh(t, opts{env: env}, "log", "--open-world", "--json")
	wantCode(t, r, 0)
	var got []string
	for _, e := range ndjson(t, r.out) {
		got = append(got, e.Tool+"@"+e.Session)
	}
	want := []string{"weather_forecast@" + ss[0].ID, "send_message@" + ss[2].ID, "weather_forecast@" + ss[4].ID,
		"web_search@" + sessionlog.IDOf(other), "fetch_url@" + sessionlog.IDOf(threeDays)}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("log --open-world:\n got %v\nwant %v", got, want)
	}

	r = mcpsh(t, opts{env: env}, "log", "--since", "2h", "--open-world", "--json")
	if ls := ndjson(t, r.out); len(ls) != 4 || ls[3].Tool != "web_search" {
		t.Errorf("--since 2h: %v", ls)
	}
	r = mcpsh(t, opts{env: env}, "log", "--since", now.Add(-30*time.Minute).UTC().Format(time.RFC3339), "--json")
	if ls := ndjson(t, r.out); len(ls) != 5 {
		t.Errorf("--since RFC 3339: %d entries, want the five calls", len(ls))
	}
	r = mcpsh(t, opts{env: env}, "log", "--session", "latest", "--json")
	if ls := ndjson(t, r.out); len(ls) != 1 || ls[0].Tool != "weather_forecast" || !strings.Contains(string(ls[0].Args), "Rome") {
		t.Errorf("--session latest: %v", ls)
	}
	r = mcpsh(t, opts{env: env}, "log", "--server", "tracker", "--json")
	if ls := ndjson(t, r.out); len(ls) != 1 || ls[0].Tool != "web_search" {
		t.Errorf("--server tracker: %v", ls)
	}
	r = mcpsh(t, opts{env: env}, "log", "--session", "nope")
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, `--session "nope": no such session`, ss[4].ID)

	r = mcpsh(t, opts{env: env}, "log", "--server", "demo", "--status", "ok")
	wantCode(t, r, 0)
	contains(t, "log", r.out, "session "+ss[4].ID+" · demo · in-process", "◆ send_message", "list_notes")
	contains(t, "stderr", r.errOut, "5 calls of 7 in 7 sessions")

	// The open-world log holds exactly the open-world calls, each naming its session.
	ow, warnings, err := sessionlog.ReadFile(filepath.Join(state, "openworld.jsonl"))
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	got = nil
	for _, e := range ow {
		got = append(got, e.Tool+"@"+e.Session)
	}
	if want := []string{"weather_forecast@" + ss[4].ID, "send_message@" + ss[2].ID, "weather_forecast@" + ss[0].ID}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("openworld.jsonl:\n got %v\nwant %v", got, want)
	}
}

// TestLogFollow follows the sessions while another mcpsh makes a call: the
// new session's entry appears, and so does a line a writer finished in two
// writes, without being called broken.
func TestLogFollow(t *testing.T) {
	t.Parallel()
	env, sessions, _ := stateEnv(t)
	wantCode(t, mcpsh(t, opts{env: env}, "call", "--demo", "list_notes"), 0)
	cmd := command(t, mcpshBin, "log", "--follow", "--json")
	cmd.Env = testEnv(t, env...)
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines, errLines := make(chan string, 100), make(chan string, 100)
	for r, ch := range map[*bufio.Scanner]chan string{bufio.NewScanner(stdout): lines, bufio.NewScanner(stderr): errLines} {
		go func() {
			for r.Scan() {
				ch <- r.Text()
			}
			close(ch)
		}()
	}
	deadline := time.After(patience)
	await := func(ch chan string, what string) string {
		t.Helper()
		for {
			select {
			case l, ok := <-ch:
				if !ok {
					t.Fatalf("mcpsh log --follow ended before %s", what)
				}
				if strings.Contains(l, what) {
					return l
				}
			case <-deadline:
				t.Fatalf("no %s from mcpsh log --follow", what)
			}
		}
	}
	await(errLines, "following 1 session log")

	wantCode(t, mcpsh(t, opts{env: env}, "call", "--demo", "weather_forecast", "city=Lima"), 0)
	l := await(lines, "weather_forecast")
	var e logLine
	if err := json.Unmarshal([]byte(l), &e); err != nil || e.Session == "" || !strings.Contains(string(e.Args), "Lima") {
		t.Errorf("followed entry %q (%v)", l, err)
	}

	// A session whose line arrives in two writes, as a poll may catch it.
	line := entryJSON(t, time.Now(), "fs", "written_in_two", false)
	p := fabricated(t, sessions, time.Now(), time.Now(), line[:25])
	time.Sleep(500 * time.Millisecond) // not an assertion: lets a poll see half the line
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(line[25:])
	f.Close()
	await(lines, "written_in_two")

	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Errorf("log --follow after Ctrl-C: %v, want exit 0", err)
	}
	for l := range errLines {
		if strings.Contains(l, "warning") {
			t.Errorf("stderr: %s", l)
		}
	}
}

// TestLogRetention fabricates old sessions and a small log.maxSize, makes a
// call, and checks what the new session pruned.
func TestLogRetention(t *testing.T) {
	t.Parallel()
	env, sessions, state := stateEnv(t)
	now := time.Now()
	small := entryJSON(t, now, "fs", "x", false)
	ancient := fabricated(t, sessions, now.Add(-40*24*time.Hour), now.Add(-40*24*time.Hour), small)
	big := fabricated(t, sessions, now.Add(-3*time.Hour), now.Add(-3*time.Hour), strings.Repeat(small, 100))
	recent := fabricated(t, sessions, now.Add(-time.Hour), now.Add(-time.Hour), small)
	// An interactive session still running in another terminal: this test's
	// own process stands in for it.
	running := sessionlog.DefaultPath(sessions, now.Add(-50*24*time.Hour), os.Getpid())
	os.WriteFile(running, []byte(small), 0o600)
	os.Chtimes(running, now.Add(-50*24*time.Hour), now.Add(-50*24*time.Hour))
	foreign := filepath.Join(sessions, "keep-me.jsonl")
	os.WriteFile(foreign, []byte("mine\n"), 0o600)
	os.Chtimes(foreign, now.Add(-400*24*time.Hour), now.Add(-400*24*time.Hour))
	owOld := strings.Repeat(entryJSON(t, now.Add(-time.Hour), "fs", "old_world", true), 20)
	os.WriteFile(filepath.Join(state, "openworld.jsonl"), []byte(owOld), 0o600)

	cfg := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(cfg, []byte(`{"mcpServers": {}, "log": {"maxAge": "30d", "maxSize": "8KB"}}`), 0o600)
	r := mcpsh(t, opts{env: env}, "call", "--demo", "weather_forecast", "city=Oslo", "--config", cfg)
	wantCode(t, r, 0)

	for p, kept := range map[string]bool{ancient: false, big: false, recent: true, running: true, foreign: true} {
		if _, err := os.Stat(p); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", filepath.Base(p), err == nil, kept)
		}
	}
	ss, _ := sessionlog.Sessions(sessions)
	// The new session is the newest, and survived its own pruning.
	if len(ss) != 3 || ss[0].PID == 999999999 || ss[0].PID == os.Getpid() {
		t.Fatalf("sessions left %v", ss)
	}
	if es, _, _ := sessionlog.ReadFile(ss[0].Path); len(es) != 1 || es[0].Tool != "weather_forecast" {
		t.Errorf("the new session holds %v", es)
	}
	// The open-world log was past a tenth of maxSize: moved aside, and this
	// session's call starts the new one.
	if b, _ := os.ReadFile(filepath.Join(state, "openworld.1.jsonl")); string(b) != owOld {
		t.Errorf("openworld.1.jsonl holds %d bytes", len(b))
	}
	if ow, _, _ := sessionlog.ReadFile(filepath.Join(state, "openworld.jsonl")); len(ow) != 1 || ow[0].Tool != "weather_forecast" {
		t.Errorf("openworld.jsonl holds %v", ow)
	}

	os.WriteFile(cfg, []byte(`{"mcpServers": {}, "log": {"maxSize": "lots"}}`), 0o600)
	r = mcpsh(t, opts{env: env}, "call", "--demo", "list_notes", "--config", cfg)
	// The file's top-level policy rules apply to --demo too, so a file that
	// cannot be read stops the call rather than run it without them.
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, cfg+`: log.maxSize: "lots" is not a size`)
}
