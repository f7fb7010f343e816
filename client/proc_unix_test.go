//go:build unix

package client

import (
	"syscall"
	"testing"
)

// The server leads a process group of its own, so the terminal's Ctrl-C,
// which goes to mcpsh's group, does not reach it.
func TestServerLeadsItsOwnProcessGroup(t *testing.T) {
	t.Parallel()
	p, child := startTestTree(t, "leaves-on-eof")
	leader := p.cmd.Process.Pid
	for _, pid := range []int{leader, child} {
		pgid, err := syscall.Getpgid(pid)
		if err != nil {
			t.Fatal(err)
		}
		if pgid != leader || pgid == syscall.Getpgrp() {
			t.Errorf("pid %d is in group %d; want the server's own group %d (mcpsh's is %d)", pid, pgid, leader, syscall.Getpgrp())
		}
	}
}
