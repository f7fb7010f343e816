package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
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
	proc   *process // set by Connect
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
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := exec.Command(t.target.Command, t.target.Args...)
	cmd.Dir = t.target.Dir
	cmd.Env = os.Environ()
	for k, v := range t.target.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = t.stderr

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
	p := &process{cmd: cmd, tree: tree, stdin: inW, stdout: newStdoutReader(outR, t.tap, t.warn), exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.proc = p
	// The process is ended first, stdout read until then: a server that
	// writes on its way out (a last answer) must not die of SIGPIPE.
	return newLineConn(p.stdout, p, func() error { return errors.Join(p.Close(), p.stdout.Close()) }), nil
}

func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close ends the server the way the spec asks (close stdin, wait, SIGTERM,
// SIGKILL), for its whole process tree.
func (p *process) Close() error {
	p.once.Do(func() {
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

func (p *process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitStatus describes how the server ended, or "" while it runs.
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
		return ee.ProcessState.String()
	default:
		return p.err.Error()
	}
}
