//go:build unix

package client

import (
	"os/exec"
	"syscall"
)

// procTree is a stdio server's process group: the server leads it, and what it
// starts (node under npx, the command under sh -c) stays in it unless it leaves
// on purpose. Its own group also keeps the terminal's Ctrl-C away from the
// server: mcpsh hears it, tells the server the call is cancelled, and closes it.
type procTree struct{ pgid int }

func startTree(cmd *exec.Cmd, _ func(string)) (*procTree, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &procTree{pgid: cmd.Process.Pid}, nil
}

// terminate asks every process of the group to stop.
func (t *procTree) terminate() { _ = syscall.Kill(-t.pgid, syscall.SIGTERM) }

// kill ends every process of the group.
func (t *procTree) kill() { _ = syscall.Kill(-t.pgid, syscall.SIGKILL) }

// alive reports whether any process of the group is left.
func (t *procTree) alive() bool { return syscall.Kill(-t.pgid, 0) == nil }

// release lets go of the tree once it is ended; a group holds nothing.
func (t *procTree) release() {}
