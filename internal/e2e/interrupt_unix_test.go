//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/fixture"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// Two Ctrl-Cs in quick succession, as `timeout -s INT` delivers them (to
// the process, then to its group, a millisecond apart), while a call waits
// on the server: the second may hurry the exit, but the entry of the call
// that was sent is written all the same, and mcpsh says what happened.
// Run it many times (-count=20): without the fix most runs lost the entry.
func TestTwoInterruptsStillLogTheCallThatWasSent(t *testing.T) {
	env, sessions, _ := stateEnv(t)
	state := t.TempDir()
	cmd := exec.Command(mcpshBin, append([]string{"call", "wait_write"}, fixtureCmd("slow", state)...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := start(t, cmd)
	deadline := time.Now().Add(30 * time.Second)
	for fixture.CountIn(state, "executions", "wait_write") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("wait_write never reached the server")
		}
		time.Sleep(5 * time.Millisecond)
	}
	pid := cmd.Process.Pid
	syscall.Kill(pid, syscall.SIGINT)
	time.Sleep(time.Millisecond)
	syscall.Kill(-pid, syscall.SIGINT)
	if code := p.wait(t); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, p.errOut.String())
	}
	contains(t, "stderr", p.errOut.String(), "cancelled by the user")
	var got []string
	ss, err := sessionlog.Sessions(sessions)
	if err != nil {
		t.Fatal(err)
	}
	for _, sess := range ss {
		es, _, err := sessionlog.ReadFile(sess.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			got = append(got, e.Tool+" "+string(e.Status))
		}
	}
	if len(got) != 1 || got[0] != "wait_write cancelled" {
		t.Fatalf("the session log holds %q, want the cancelled wait_write\nstderr:\n%s", got, p.errOut.String())
	}
}
