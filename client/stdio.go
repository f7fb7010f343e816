package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// How long a stdio server gets to exit after its stdin closes, and then after
// it is asked to stop (SIGTERM; Ctrl-Break on Windows), before its whole process
// tree is killed. Short, because mcpsh's exit waits on it; well-behaved servers
// exit on EOF at once.
var (
	stdinGrace = 300 * time.Millisecond
	termGrace  = 700 * time.Millisecond
	// hurryGrace is each of them once the user is in a hurry (a second
	// Ctrl-C: Options.Hurry).
	hurryGrace = 50 * time.Millisecond
)

// stdioTransport starts the server in a process tree of its own (a process
// group on Unix, a Job Object on Windows: proc_*.go), so that a server started
// through a wrapper (npx, uvx, sh -c) is ended with all its children. go-sdk's
// CommandTransport signals only the direct child, and npx survives that with
// the real server still running.
type stdioTransport struct {
	target Target
	stderr io.Writer
	tap    *tap
	warn   func(string)
	// probe times the 2026-07-28 handshake's server/discover (protocol.go);
	// nil when there is none to time.
	probe *probe
	// hurry, once closed, cuts short the grace a closing server gets.
	hurry <-chan struct{}
	proc  *process // set by Connect
}

// process is a running stdio server.
type process struct {
	cmd    *exec.Cmd
	tree   *procTree
	stdin  *os.File
	stdout *stdoutReader
	exited chan struct{}
	err    error // Wait's result, valid once exited is closed
	once   sync.Once
	hurry  <-chan struct{}

	// alive is closed at the server's first byte, on stdout or stderr: it
	// has started, however long that took (npx fetching a package, say).
	alive     chan struct{}
	aliveOnce sync.Once
	// closing: mcpsh has begun to end the server. hungUp: the server closed
	// its stdout (exited, mostly) before that, so mcpsh's end of the
	// conversation is not why.
	closing atomic.Bool
	hungUp  atomic.Bool
}

func (p *process) lifeSign() { p.aliveOnce.Do(func() { close(p.alive) }) }

// lifeSignWriter and lifeSignReader pass the server's stderr and stdout on,
// noting its first byte.
type lifeSignWriter struct {
	w io.Writer
	p *process
}

func (l lifeSignWriter) Write(b []byte) (int, error) {
	if len(b) > 0 {
		l.p.lifeSign()
	}
	return l.w.Write(b)
}

type lifeSignReader struct {
	io.ReadCloser
	p *process
}

func (l lifeSignReader) Read(b []byte) (int, error) {
	n, err := l.ReadCloser.Read(b)
	if n > 0 {
		l.p.lifeSign()
	}
	if err != nil && !l.p.closing.Load() {
		l.p.hungUp.Store(true)
	}
	return n, err
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := exec.Command(t.target.Command, t.target.Args...)
	cmd.Dir = t.target.Dir
	cmd.Env = os.Environ()
	for k, v := range t.target.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	p := &process{cmd: cmd, exited: make(chan struct{}), alive: make(chan struct{}), hurry: t.hurry}
	cmd.Stderr = lifeSignWriter{w: t.stderr, p: p}

	// Plain pipes rather than cmd.StdoutPipe: Wait would close that pipe as soon
	// as the child exits, racing the read of its last messages.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	tree, err := startTree(cmd, t.warn)
	if err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return nil, fmt.Errorf("starting %s: %w", t.target.Command, err)
	}
	inR.Close()
	outW.Close()
	p.tree, p.stdin, p.stdout = tree, inW, newStdoutReader(lifeSignReader{outR, p}, t.tap, t.warn)
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.proc = p
	// The process is ended first, stdout read until then: a server that
	// writes on its way out (a last answer) must not die of SIGPIPE.
	conn := newLineConn(p.stdout, p, func() error { return errors.Join(p.Close(), p.stdout.Close()) })
	if t.probe != nil {
		t.probe.proc = p
		if t.probe.timed() {
			go t.probe.watch(p, conn, t.tap)
		}
	}
	return conn, nil
}

func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close ends the server the way the spec asks (close stdin, wait, SIGTERM,
// SIGKILL), for its whole process tree.
func (p *process) Close() error {
	p.once.Do(func() {
		p.closing.Store(true)
		p.stdin.Close()
		if !p.waitExit(stdinGrace) {
			p.tree.terminate()
			if !p.waitExit(termGrace) {
				p.tree.kill()
				p.waitExit(termGrace)
			}
		}
		// The leader may have exited while children it started live on.
		if p.tree.alive() {
			p.tree.terminate()
			time.Sleep(50 * time.Millisecond)
			p.tree.kill()
		}
		p.tree.release()
	})
	return nil
}

// waitExit waits at most d for the server to exit; once mcpsh is told to
// hurry, at most hurryGrace.
func (p *process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	case <-p.hurry:
	}
	h := time.NewTimer(min(d, hurryGrace))
	defer h.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	case <-h.C:
		return false
	}
}

// exitStatus describes how the server ended, or "" while it runs.
// endedBy words how a process ended after "the server": "exited with
// status 3", "was ended by a signal (terminated)".
func endedBy(ps *os.ProcessState) string {
	if code := ps.ExitCode(); code >= 0 {
		return fmt.Sprintf("exited with status %d", code)
	}
	if sig, ok := strings.CutPrefix(ps.String(), "signal: "); ok {
		return "was ended by a signal (" + sig + ")"
	}
	return "ended: " + ps.String()
}

func (p *process) exitStatus() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	var ee *exec.ExitError
	switch {
	case p.err == nil:
		return "exited with status 0"
	case errors.As(p.err, &ee):
		return endedBy(ee.ProcessState)
	default:
		return p.err.Error()
	}
}
