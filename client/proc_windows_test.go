package client

import (
	"testing"
	"time"
)

// When mcpsh ends without closing the server (killed, or crashed), Windows
// closes its handle to the server's job, and the job's limit ends the tree.
// Releasing the handle alone, with stdin left open and no signal, is that end.
func TestJobEndsTheTreeWhenItsHandleCloses(t *testing.T) {
	t.Parallel()
	p, child := startTestTree(t, "stubborn")
	leader := p.cmd.Process.Pid
	if p.tree.job == 0 {
		t.Fatal("the server runs outside a job object")
	}
	if waitGone(child, 50*time.Millisecond) || waitGone(leader, 0) {
		t.Fatal("the tree died before its job was closed: the test proves nothing")
	}
	p.tree.release()
	if !waitGone(leader, testBound) {
		t.Errorf("the server (pid %d) survived its job", leader)
	}
	if !waitGone(child, testBound) {
		t.Errorf("the server's child (pid %d) survived its job", child)
	}
}
