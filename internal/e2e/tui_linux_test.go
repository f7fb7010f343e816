//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests here read /proc.

// processGone reports whether pid has exited (a zombie awaiting its reaper counts).
func processGone(pid string) bool {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	return err != nil || strings.Contains(string(stat), ") Z ")
}

// connectingToHangingServer opens the TUI in tmux on a server that never
// answers initialize and has started a grandchild, and returns that
// grandchild's PID and the file the shell writes mcpsh's exit status to.
func connectingToHangingServer(t *testing.T, x *tmux) (pid, status string) {
	t.Helper()
	state := t.TempDir()
	status = filepath.Join(state, "status")
	shell := fmt.Sprintf("HOME=%s TERM=xterm-256color %s -- %s -scenario hang-init -state %s; echo $? > %s; sleep 30",
		state, mcpshBin, fixtureBin, state, status)
	x.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell)
	x.waitFor("connecting to")
	deadline := time.Now().Add(patience)
	for pid == "" {
		if b, _ := os.ReadFile(filepath.Join(state, "pids")); len(b) > 0 {
			pid = strings.TrimSpace(string(b))
		} else if time.Now().After(deadline) {
			t.Fatalf("the server never started its grandchild:\n%s", x.screen())
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return pid, status
}

// Closing the terminal (tmux ends the session: SIGHUP) ends the server's
// process group too. Left to SIGHUP's default, mcpsh died at once and the
// server's grandchild lived on.
func TestTUIClosedTerminalStopsTheServer(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	pid, _ := connectingToHangingServer(t, x)
	x.run("kill-session", "-t", "t")
	deadline := time.Now().Add(30 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			exec.Command("kill", pid).Run()
			t.Fatalf("the server's grandchild %s outlived mcpsh's terminal", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Quitting while mcpsh connects ends the server's whole process group, the
// grandchild it started included.
func TestTUIQuitWhileConnectingStopsTheServer(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	pid, status := connectingToHangingServer(t, x)
	deadline := time.Now().Add(patience)
	x.keys("q")
	for !processGone(pid) {
		if time.Now().After(deadline.Add(5 * time.Second)) {
			exec.Command("kill", pid).Run()
			t.Fatalf("the server's grandchild %s outlived mcpsh", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for {
		b, err := os.ReadFile(status)
		if err == nil && len(b) > 0 {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Errorf("mcpsh exited %s", code)
			}
			return
		}
		if time.Now().After(deadline.Add(10 * time.Second)) {
			t.Fatalf("mcpsh did not exit after q:\n%s", x.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
