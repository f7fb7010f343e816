//go:build linux

package proxy

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
)

// The host goes away in the middle of a call: the call is cancelled, not
// retried, logged, and the server's whole process group ends.
func TestHostGoneMidCallEndsTheServer(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	h := r.rawHost()
	h.initialize("2025-11-25", `{}`)
	h.send(`{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	wait.Until(t, "slow to reach the server", func() bool { return r.executions("slow") == 1 })
	pids := fixture.Lines(r.state, "pids")
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	pid, _ := strconv.Atoi(pids[0])
	r.hostIn.Close()
	if err := <-r.served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	r.served <- nil // for the cleanup
	if o := r.logged(); len(o) != 1 || o[0].Status != client.StatusCancelled || r.executions("slow") != 1 {
		t.Fatalf("logged %+v, executions %d", o, r.executions("slow"))
	}
	wait.Until(t, "the server's process to end", func() bool { return !processRunning(pid) })
}

// processRunning reports a process that exists and is not a zombie.
func processRunning(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}
