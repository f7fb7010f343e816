package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the processes of a stdio server's tree, on every
// platform: a leader that starts a child and names it on stderr, and the child,
// which sleeps. MCPSH_PROC_ROLE says which; init runs before TestMain.
func init() {
	role := os.Getenv("MCPSH_PROC_ROLE")
	switch role {
	case "":
		return
	case "sleeper":
		time.Sleep(10 * time.Minute)
		os.Exit(0)
	}
	exe, _ := os.Executable()
	c := exec.Command(exe)
	c.Env = append(os.Environ(), "MCPSH_PROC_ROLE=sleeper")
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "starting the child:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "child pid %d\n", c.Process.Pid)
	if role == "stubborn" {
		// Heard and never acted on: SIGTERM, and Ctrl-Break on Windows.
		signal.Notify(make(chan os.Signal, 1), os.Interrupt, syscall.SIGTERM)
		time.Sleep(10 * time.Minute)
	}
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0) // the child lives on, as node does when npx goes
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startTestTree starts the test binary as a stdio server playing role, the way
// Connect starts one, and returns it with the pid of the child it started.
func startTestTree(t *testing.T, role string) (p *process, child int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	tr := &stdioTransport{
		target: Target{Name: "tree-" + role, Kind: KindStdio, Command: exe, Env: map[string]string{"MCPSH_PROC_ROLE": role}},
		stderr: stderr, tap: newTap(), warn: func(w string) { t.Errorf("warning: %s", w) },
	}
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	re := regexp.MustCompile(`child pid (\d+)`)
	for deadline := time.Now().Add(10 * time.Second); child == 0; time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			child, _ = strconv.Atoi(m[1])
		} else if time.Now().After(deadline) {
			tr.proc.Close()
			t.Fatalf("the server did not name its child; stderr: %q", stderr.String())
		}
	}
	t.Cleanup(func() { tr.proc.Close() })
	return tr.proc, child
}

// Close ends the server and the child it started, whether the server leaves
// when its stdin closes (and the child stays: the group outlives its leader) or
// ignores being asked to stop (and must be killed).
func TestCloseEndsTheServersProcessTree(t *testing.T) {
	t.Parallel()
	for _, role := range []string{"leaves-on-eof", "stubborn"} {
		t.Run(role, func(t *testing.T) {
			t.Parallel()
			p, child := startTestTree(t, role)
			leader := p.cmd.Process.Pid
			if waitGone(child, 50*time.Millisecond) || waitGone(leader, 0) {
				t.Fatal("the tree died before Close: the test proves nothing")
			}
			p.Close()
			if !waitGone(leader, testBound) {
				t.Errorf("the server (pid %d) survived Close", leader)
			}
			if !waitGone(child, testBound) {
				t.Errorf("the server's child (pid %d) survived Close", child)
			}
		})
	}
}
