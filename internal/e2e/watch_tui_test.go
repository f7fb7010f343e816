package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpsh watch driven in tmux as a person would: a go-sdk host calls
// through mcpsh proxy; the console shows the host and the read-only call;
// the destructive call waits at the console, runs once on y (pressed
// once), and on n is a tool error for the agent with nothing sent.
func TestWatchInATerminal(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	run, err := os.MkdirTemp("", "mt") // short: a socket's path is bounded
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(run)
	env, _, state := stateEnv(t)
	env = append(env, "XDG_RUNTIME_DIR="+run)
	home := t.TempDir()
	status := filepath.Join(home, "status")
	shell := fmt.Sprintf("HOME=%s XDG_STATE_HOME=%s XDG_RUNTIME_DIR=%s TERM=xterm-256color %s watch; echo $? > %s; sleep 30",
		home, filepath.Dir(state), run, mcpshBin, status)
	x.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell)
	x.waitFor("mcpsh watch · 0 proxies", "waiting for a proxy")

	fx := t.TempDir()
	cs, stderr := goHost(t, proxyCmd(t, env, fx, "proxy", "--no-log"), "2025-11-25", nil)
	defer cs.Close()
	x.waitFor("mcpsh watch · 1 proxy", "e2e-host 4.2 → ", "stdio", " ok")

	if res, text := hostCall(t, cs, "read"); res.IsError || text != "ran read" {
		t.Fatalf("read: %q", text)
	}
	x.waitFor("read-only", "Read  read", "policy", "ok ")

	type result struct {
		isError bool
		text    string
		err     error
	}
	wipe := func() chan result {
		done := make(chan result, 1)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"path": "/srv/notes"}})
			if err != nil {
				done <- result{err: err}
				return
			}
			var b strings.Builder
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					b.WriteString(tc.Text)
				}
			}
			done <- result{isError: res.IsError, text: b.String()}
		}()
		return done
	}
	wait := func(done chan result) result {
		t.Helper()
		select {
		case r := <-done:
			if r.err != nil {
				t.Fatalf("wipe: %v", r.err)
			}
			return r
		case <-time.After(patience):
			t.Fatalf("the host's call did not end:\n%s", x.screen())
		}
		return result{}
	}

	done := wipe()
	s := x.waitFor("Run a destructive tool?", "wipe  destructive", "for the agent in e2e-host 4.2", `"path": "/srv/notes"`, "y run it")
	if n := fixture.CountIn(fx, "executions", "wipe"); n != 0 {
		t.Fatalf("wipe ran %d times before an answer:\n%s", n, s)
	}
	t.Logf("the console asks:\n%s", s)
	x.keys("y")
	if r := wait(done); r.isError || r.text != "ran wipe" {
		t.Fatalf("answered y: %+v", r)
	}
	if n := fixture.CountIn(fx, "executions", "wipe"); n != 1 {
		t.Fatalf("answered y once: wipe ran %d times", n)
	}
	s = x.waitFor("you answered wipe: run", "console")
	t.Logf("after y:\n%s", s)

	done = wipe()
	x.waitFor("Run a destructive tool?", "y run it")
	x.keys("n")
	r := wait(done)
	if !r.isError || !strings.Contains(r.text, "declined at the console") {
		t.Fatalf("answered n: %+v", r)
	}
	if n := fixture.CountIn(fx, "executions", "wipe"); n != 1 {
		t.Fatalf("answered n: wipe ran %d times in all, want the one y ran", n)
	}
	s = x.waitFor("you answered wipe: refused", "refused")
	t.Logf("after n:\n%s", s)

	cs.Close()
	x.waitFor("mcpsh watch · 0 proxies")
	x.keys("q")
	deadline := time.Now().Add(patience)
	for {
		if b, err := os.ReadFile(status); err == nil {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Fatalf("mcpsh watch exited %s\n%s", code, x.screen())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mcpsh watch did not quit on q:\n%s", x.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Fatalf("the proxy's stderr:\n%s", stderr.String())
	}
}
