package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func toolsByName(t *testing.T, out string) map[string]map[string]any {
	t.Helper()
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("tools --json: %v\n%s", err, out)
	}
	by := map[string]map[string]any{}
	for _, tool := range list {
		by[tool["name"].(string)] = tool
	}
	return by
}

func TestServeDemoOverStdio(t *testing.T) {
	t.Parallel()
	r := mcpsh(t, opts{}, "tools", "--json", "--", mcpshBin, "serve-demo")
	wantCode(t, r, 0)
	by := toolsByName(t, r.out)
	if len(by) != 17 {
		t.Errorf("%d tools, want 17", len(by))
	}
	for name, class := range map[string]string{"list_notes": "read-only", "add_note": "write", "archive_notes": "destructive", "echo": "destructive"} {
		if by[name]["class"] != class {
			t.Errorf("%s class %v, want %s", name, by[name]["class"], class)
		}
	}
	r = mcpsh(t, opts{stdin: "add_note title=e2e\nsearch_notes query=e2e\npop_note\n"}, "run", "--json", "--", mcpshBin, "serve-demo")
	wantCode(t, r, 4)
	if n := strings.Count(r.out, "\n"); n != 3 {
		t.Errorf("%d records, want 3", n)
	}
	contains(t, "run output", r.out, `"structuredContent":{"matches":[`, `"status":"refused"`)
}

// serveHTTP starts `mcpsh serve-demo --http 127.0.0.1:0` and returns its URL.
func serveHTTP(t *testing.T) string {
	t.Helper()
	cmd := command(t, mcpshBin, "serve-demo", "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	found := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`).FindString(lines.Text()); m != "" {
				found <- m
			}
		}
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(patience):
		t.Fatal("serve-demo --http did not say where it listens")
	}
	return ""
}

func TestServeDemoOverHTTP(t *testing.T) {
	t.Parallel()
	url := serveHTTP(t)
	r := mcpsh(t, opts{}, "tools", "--url", url)
	wantCode(t, r, 0)
	contains(t, "tools", r.out, "add_note\twrite", "delete_note\tdestructive\tDelete a note\tidempotent")
	r = mcpsh(t, opts{}, "call", "--url", url, "--header", "X-Test: 1", "slow_count", "n=3", "delay_ms=20")
	wantCode(t, r, 0)
	r = mcpsh(t, opts{}, "call", "--url", url, "delete_note", "id=2")
	wantCode(t, r, 4)
	r = mcpsh(t, opts{}, "call", "--url", url, "get_note", "id=2")
	wantCode(t, r, 0)
	contains(t, "note 2 survives the refused delete", r.out, "Shopping list")
}

// Ctrl-C, and SIGTERM and SIGHUP (a closed terminal or ssh session) alike:
// left to their default, the last two would end mcpsh at once, without
// cancelling the call or logging it.
func TestInterruptCancelsTheCallAndExits130(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			cmd := command(t, mcpshBin, "call", "--demo", "slow_count", "n=50", "delay_ms=100")
			mark := withSlowMark(t, cmd)
			p := start(t, cmd)
			waitForSlowCount(t, p, mark)
			cmd.Process.Signal(sig)
			if code := p.wait(t); code != 130 {
				t.Fatalf("exit %d, want 130\n%s", code, p.errOut.String())
			}
			if !strings.Contains(p.errOut.String(), "cancelled") {
				t.Errorf("stderr %q", p.errOut.String())
			}
			// mcpsh left without waiting for the count to end (the demo runs in it).
			if marks, _ := os.ReadFile(mark); strings.Contains(string(marks), "50 of 50") {
				t.Errorf("slow_count ran to its end after %s:\n%s", sig, marks)
			}
		})
	}
}

func TestServerStderrStaysOffTheTerminal(t *testing.T) {
	t.Parallel()
	script := "echo 'noisy banner' >&2; exec " + mcpshBin + " serve-demo"
	r := mcpsh(t, opts{}, "tools", "--", "sh", "-c", script)
	wantCode(t, r, 0)
	if strings.Contains(r.errOut, "noisy banner") {
		t.Error("the server's stderr reached mcpsh's stderr without --server-stderr")
	}
	r = mcpsh(t, opts{}, "tools", "--server-stderr", "--", "sh", "-c", script)
	contains(t, "stderr with --server-stderr", r.errOut, "noisy banner")
}
