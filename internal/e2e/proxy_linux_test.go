//go:build linux

package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// The host goes away in the middle of a call: mcpsh proxy cancels the call
// (never retrying it), records it, ends the server's process group, and
// exits 0.
func TestProxyEndsTheServerWhenTheHostGoes(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	fx := t.TempDir()
	logFile := t.TempDir() + "/proxy.jsonl"
	cmd := proxyCmd(t, env, fx, "proxy", "--log", logFile)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stdout)
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
	if !sc.Scan() {
		t.Fatalf("no answer to initialize\nstderr:\n%s", stderr.String())
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`+"\n")
	deadline := time.Now().Add(30 * time.Second)
	for fixture.CountIn(fx, "executions", "slow") != 1 {
		if time.Now().After(deadline) {
			t.Fatal("slow never reached the server")
		}
		time.Sleep(10 * time.Millisecond)
	}
	pids := fixture.Lines(fx, "pids")
	stdin.Close()
	io.Copy(io.Discard, stdout) // the answer to the cancelled call, then EOF
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcpsh proxy: %v\nstderr:\n%s", err, stderr.String())
	}
	if len(pids) != 1 || !processGone(pids[0]) {
		t.Fatalf("the server (pids %v) outlived mcpsh proxy", pids)
	}
	r := mcpsh(t, opts{env: env}, "log", logFile, "--json")
	var e struct{ Status string }
	if json.Unmarshal([]byte(r.out), &e) != nil || e.Status != "cancelled" || fixture.CountIn(fx, "executions", "slow") != 1 {
		t.Fatalf("logged %s, executions %d", r.out, fixture.CountIn(fx, "executions", "slow"))
	}
}
