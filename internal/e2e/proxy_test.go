package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpsh proxy, built, between a host and internal/testing/fixture's server: the
// host is a bare go-sdk client (at 2025-11-25, and at its default,
// 2026-07-28) or raw JSON-RPC over the pipes.

// proxyCmd is mcpsh proxy serving in front of the fixture playing scenario.
func proxyCmd(t *testing.T, env []string, state, scenario string, flags ...string) *exec.Cmd {
	args := append([]string{"proxy"}, flags...)
	args = append(args, fixtureCmd(scenario, state)...)
	cmd := command(t, mcpshBin, args...)
	cmd.Env = testEnv(t, env...)
	return cmd
}

// lockedBuffer is stderr, written by the process while the test reads it.
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

// goHost connects a go-sdk client to the proxy as its host; version ""
// takes go-sdk's default.
func goHost(t *testing.T, cmd *exec.Cmd, version string, opts *mcp.ClientOptions) (*mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e-host", Version: "4.2"}, opts)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting to mcpsh proxy: %v\nstderr:\n%s", err, stderr.String())
	}
	return cs, stderr
}

func hostCall(t *testing.T, cs *mcp.ClientSession, name string) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return res, b.String()
}

// proxyLogLine is what `mcpsh log --json` prints of a proxied call.
type proxyLogLine struct {
	Session    string `json:"session"`
	Tool       string `json:"tool"`
	Status     string `json:"status"`
	ApprovedBy string `json:"approvedBy"`
	Proxy      bool   `json:"proxy"`
	OpenWorld  bool   `json:"openWorld"`
	Host       *struct {
		Name, Version, Protocol string
	} `json:"host"`
}

func proxyLog(t *testing.T, out string) []proxyLogLine {
	t.Helper()
	var ls []proxyLogLine
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e proxyLogLine
		if l == "" {
			continue
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("not NDJSON: %q", l)
		}
		ls = append(ls, e)
	}
	return ls
}

// A read-only call passes, a destructive one with no one to ask is
// refused and never sent, one the host's user approves runs; every call
// is in the session log naming the host, open-world ones in
// openworld.jsonl too, and mcpsh log --host finds them.
func TestProxyCallsAreDecidedAndLoggedNamingTheHost(t *testing.T) {
	t.Parallel()
	env, _, state := stateEnv(t)
	for _, v := range []struct{ name, version string }{{"2025-11-25", "2025-11-25"}, {"2026-07-28", ""}} {
		t.Run(v.name, func(t *testing.T) {
			fx := t.TempDir()
			logFile := filepath.Join(t.TempDir(), "proxy.jsonl")
			cs, stderr := goHost(t, proxyCmd(t, env, fx, "proxy", "--log", logFile), v.version, nil)
			if res, text := hostCall(t, cs, "read"); res.IsError || text != "ran read" {
				t.Fatalf("read: %q", text)
			}
			if res, _ := hostCall(t, cs, "web"); res.IsError {
				t.Fatal("web was refused")
			}
			res, text := hostCall(t, cs, "wipe")
			if !res.IsError || !contains2(text, "nothing was sent", "How a person can allow it") || fixture.CountIn(fx, "executions", "wipe") != 0 {
				t.Fatalf("wipe: %q, executions %d", text, fixture.CountIn(fx, "executions", "wipe"))
			}
			cs.Close()
			if strings.Contains(stderr.String(), "panic") {
				t.Fatalf("stderr:\n%s", stderr.String())
			}

			r := mcpsh(t, opts{env: env}, "log", logFile, "--host", "e2e-*", "--json")
			wantCode(t, r, 0)
			ls := proxyLog(t, r.out)
			if len(ls) != 3 {
				t.Fatalf("log --host e2e-*: %s", r.out)
			}
			for _, l := range ls {
				if !l.Proxy || l.Host == nil || l.Host.Name != "e2e-host" || l.Host.Version != "4.2" || l.Host.Protocol != v.name {
					t.Errorf("%s logged with host %+v, proxy %v", l.Tool, l.Host, l.Proxy)
				}
			}
			if ls[0].ApprovedBy != "policy" || ls[2].Status != "refused" {
				t.Errorf("logged %+v", ls)
			}
			if r := mcpsh(t, opts{env: env}, "log", logFile, "--host", "cursor*", "--json"); strings.TrimSpace(r.out) != "" {
				t.Errorf("log --host cursor*: %s", r.out)
			}
			r = mcpsh(t, opts{env: env}, "log", logFile)
			contains(t, "log", r.out, "proxied for e2e-host 4.2")
		})
	}
	ow, _, err := sessionlog.ReadFile(filepath.Join(state, "openworld.jsonl"))
	if err != nil || len(ow) != 2 || ow[0].Tool != "web" || ow[0].Host == nil || ow[0].Host.Name != "e2e-host" {
		t.Fatalf("openworld.jsonl: %+v %v", ow, err)
	}
}

func contains2(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// The host's user approves through a form: at 2025-11-25 mcpsh asks with
// elicitation/create, at 2026-07-28 inside the call's result.
func TestProxyAsksTheHostsUser(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	for _, v := range []struct{ name, version string }{{"2025-11-25", "2025-11-25"}, {"2026-07-28", ""}} {
		t.Run(v.name, func(t *testing.T) {
			fx := t.TempDir()
			var asked []string
			var mu sync.Mutex
			cs, _ := goHost(t, proxyCmd(t, env, fx, "proxy", "--no-log"), v.version, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					mu.Lock()
					asked = append(asked, req.Params.Message)
					mu.Unlock()
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "run"}}, nil
				}})
			defer cs.Close()
			if res, text := hostCall(t, cs, "wipe"); res.IsError || fixture.CountIn(fx, "executions", "wipe") != 1 {
				t.Fatalf("wipe: %q, executions %d", text, fixture.CountIn(fx, "executions", "wipe"))
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 1 || !strings.HasPrefix(asked[0], `mcpsh asks before a call by e2e-host 4.2 to server "`) {
				t.Fatalf("the host was asked %q", asked)
			}
		})
	}
}

// stdout carries JSON-RPC and nothing else, though the server prints a
// banner and chatter on its own stdout and mcpsh warns about each line on
// stderr.
func TestProxyStdoutIsOnlyJSONRPC(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	cmd := proxyCmd(t, env, t.TempDir(), "noisy", "--no-log", "--server-stderr")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	send := func(line string) { io.WriteString(stdin, line+"\n") }
	read := func(id string) string {
		for sc.Scan() {
			line := sc.Text()
			var m map[string]json.RawMessage
			if json.Unmarshal([]byte(line), &m) != nil || string(m["jsonrpc"]) != `"2.0"` {
				t.Fatalf("stdout has a line that is not JSON-RPC: %q", line)
			}
			if string(m["id"]) == id {
				return line
			}
		}
		t.Fatalf("stdout ended\nstderr:\n%s", stderr.String())
		return ""
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	read("1")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{}}}`)
	if line := read("2"); !strings.Contains(line, "ran read") {
		t.Fatalf("read: %s", line)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcpsh proxy: %v\nstderr:\n%s", err, stderr.String())
	}
	contains(t, "stderr", stderr.String(), "mcpsh: warning:", "not JSON-RPC")
}

// The flags that mean what they mean for call reach the proxy's calls;
// the ones that are not for it are usage errors.
func TestProxyFlags(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	fx := t.TempDir()
	cs, _ := goHost(t, proxyCmd(t, env, fx, "proxy", "--no-log", "--untrusted"), "2025-11-25", nil)
	res, text := hostCall(t, cs, "read")
	cs.Close()
	// The server the proxy starts knows it is behind one, so a proxy it
	// might start in turn refuses (below).
	if got := fixture.Lines(fx, "proxied-as"); len(got) == 0 || got[0] == "" {
		t.Errorf("the server was not told it runs behind mcpsh proxy: %q", got)
	}
	if !res.IsError || !strings.Contains(text, "untrusted") || fixture.CountIn(fx, "executions", "read") != 0 {
		t.Errorf("--untrusted: read %q, executions %d", text, fixture.CountIn(fx, "executions", "read"))
	}
	cs, _ = goHost(t, proxyCmd(t, env, fx, "proxy", "--no-log", "--read-only"), "2025-11-25", &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "run"}}, nil
		}})
	res, text = hostCall(t, cs, "exact")
	cs.Close()
	if !res.IsError || !strings.Contains(text, "--read-only") || fixture.CountIn(fx, "executions", "exact") != 0 {
		t.Errorf("--read-only: exact %q, executions %d", text, fixture.CountIn(fx, "executions", "exact"))
	}
	for _, bad := range [][]string{{"--approval-timeout", "0"}, {"--root", "/tmp"}, {"--elicit", "defaults"}, {"extra"}, {"--yes"}} {
		r := mcpsh(t, opts{env: env}, append(append([]string{"proxy"}, bad...), fixtureCmd("proxy", fx)...)...)
		wantCode(t, r, 2)
		if r.out != "" {
			t.Errorf("%v wrote to stdout: %q", bad, r.out)
		}
	}
	// A proxy started by a proxy (a host entry that runs mcpsh proxy
	// inside mcpsh proxy) refuses, rather than start proxies without end.
	r := mcpsh(t, opts{env: append(env, "MCPSH_PROXY=cursor:github")}, append([]string{"proxy"}, fixtureCmd("proxy", fx)...)...)
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, "already routed through mcpsh proxy (cursor:github)")
	if r.out != "" {
		t.Errorf("wrote to stdout: %q", r.out)
	}
}
