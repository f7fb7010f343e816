package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFlakyToolShowsItsRetries(t *testing.T) {
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
