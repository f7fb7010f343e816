//go:build linux

package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

type logEntry struct {
	Tool     string
	Status   string
	Attempts []struct {
		N       int
		Failure string
		Error   string
	}
}

func readLog(t *testing.T, path string) []logEntry {
	t.Helper()
	r := mcpsh(t, opts{}, "log", path, "--json")
	wantCode(t, r, 0)
	var out []logEntry
	for _, l := range strings.Split(strings.TrimSpace(r.out), "\n") {
		if l == "" {
			continue
		}
		var e logEntry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("mcpsh log --json printed %q", l)
		}
		out = append(out, e)
	}
	return out
}

func TestKill9MidScriptLosesNoFinishedCall(t *testing.T) {
	t.Parallel()
	logPath := filepath.Join(t.TempDir(), "session.jsonl")
	var script strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&script, "add_note title=note-%d\nslow_count n=1 delay_ms=40\n", i)
	}
	cmd := command(t, mcpshBin, "run", "--demo", "--json", "--log", logPath)
	cmd.Stdin = strings.NewReader(script.String())
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Each record reaches stdout only after its log line was synced.
	printed := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && printed < 12 {
		printed++
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	entries := readLog(t, logPath)
	if len(entries) < printed || len(entries) >= 80 {
		t.Fatalf("the log has %d entries; %d calls had finished before the kill, 80 were planned", len(entries), printed)
	}
	for i, e := range entries {
		want := "add_note"
		if i%2 == 1 {
			want = "slow_count"
		}
		if e.Tool != want || e.Status != "ok" {
			t.Errorf("entry %d: %s %s, want %s ok", i, e.Tool, e.Status, want)
		}
	}
	r := mcpsh(t, opts{}, "log", logPath)
	wantCode(t, r, 0)
	contains(t, "mcpsh log", r.out, "note")
}

func TestInterruptIsRecordedAsCancelled(t *testing.T) {
	t.Parallel()
	logPath := filepath.Join(t.TempDir(), "session.jsonl")
	cmd := command(t, mcpshBin, "call", "--demo", "slow_count", "n=50", "delay_ms=100", "--log", logPath)
	mark := withSlowMark(t, cmd)
	p := start(t, cmd)
	waitForSlowCount(t, p, mark)
	cmd.Process.Signal(syscall.SIGINT)
	if code := p.wait(t); code != 130 {
		t.Fatalf("exit %d\nstderr:\n%s", code, p.errOut.String())
	}
	entries := readLog(t, logPath)
	if len(entries) != 1 || entries[0].Status != "cancelled" || len(entries[0].Attempts) != 1 {
		t.Fatalf("log %+v", entries)
	}
}

// childOf finds the processes whose parent is pid.
func childOf(pid int) []int {
	var kids []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		n, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the ")" that closes the command name: state, ppid, ...
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			kids = append(kids, n)
		}
	}
	return kids
}

func TestKilledServerIsRestartedAndTheScriptGoesOn(t *testing.T) {
	t.Parallel()
	logPath := filepath.Join(t.TempDir(), "session.jsonl")
	cmd := command(t, mcpshBin, "run", "--log", logPath, "--", mcpshBin, "serve-demo")
	mark := withSlowMark(t, cmd)
	// The count must outlast the moment between its first mark and the kill.
	cmd.Stdin = strings.NewReader("slow_count n=20 delay_ms=100\nadd_note title=after-the-crash\nlist_notes\n")
	p := start(t, cmd)
	waitForSlowCount(t, p, mark)
	server := childOf(cmd.Process.Pid)
	if len(server) != 1 {
		t.Fatalf("server processes %v", server)
	}
	syscall.Kill(server[0], syscall.SIGKILL)
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, p.out.String(), p.errOut.String())
	}
	contains(t, "stderr", p.errOut.String(), "slow_count: attempt 1 of 4 failed (connection lost", "was ended by a signal (killed)")
	contains(t, "stdout", p.out.String(), "after-the-crash")
	entries := readLog(t, logPath)
	if len(entries) != 3 || len(entries[0].Attempts) != 2 || entries[0].Attempts[0].Failure != "connection_lost" {
		t.Fatalf("log %+v", entries)
	}
}

func TestFlakyDemoToolRetriesAcrossAProcessBoundary(t *testing.T) {
	t.Parallel()
	r := mcpsh(t, opts{}, "call", "--no-log", "flaky_sync", "--", mcpshBin, "serve-demo")
	wantCode(t, r, 0)
	contains(t, "stderr", r.errOut, "flaky_sync: attempt 1 of 4 failed (server error", "flaky_sync: attempt 2 of 4 failed")
	r = mcpsh(t, opts{}, "call", "--no-log", "flaky_sync", "--retries", "1", "--", mcpshBin, "serve-demo")
	wantCode(t, r, 1)
}

func TestDefaultLogLocationAndPermissions(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := mcpsh(t, opts{env: []string{"XDG_STATE_HOME=" + state}}, "call", "--demo", "list_notes")
	wantCode(t, r, 0)
	dir := filepath.Join(state, "mcpsh", "sessions")
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("folder %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("file %v", fi.Mode().Perm())
	}
	r = mcpsh(t, opts{env: []string{"XDG_STATE_HOME=" + state}}, "log")
	wantCode(t, r, 0)
	contains(t, "log", r.out, "list_notes")
}

// TestDefaultLogStaysInTheTestHome: a test that names no log gets the default
// one, which must land in the test's own temporary state folder (testEnv),
// never the user's.
func TestDefaultLogStaysInTheTestHome(t *testing.T) {
	t.Parallel()
	state := testHome(t, "XDG_STATE_HOME")
	if !strings.HasPrefix(state, homesRoot+string(filepath.Separator)) {
		t.Fatalf("XDG_STATE_HOME is %q, not under %s: the test's processes do not run in its own folders", state, homesRoot)
	}
	cmd := command(t, mcpshBin, "call", "--demo", "list_notes")
	p := start(t, cmd)
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, p.errOut.String())
	}
	pattern := filepath.Join(state, "mcpsh", "sessions", fmt.Sprintf("*-%d.jsonl", cmd.Process.Pid))
	if files, _ := filepath.Glob(pattern); len(files) != 1 {
		t.Fatalf("no session log %s", pattern)
	}
}
