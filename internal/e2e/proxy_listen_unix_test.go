//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearerTransport sends the token with each request, as a host configured
// with the header does.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(req)
}

// listening is a built mcpsh proxy --listen 127.0.0.1:0 in front of the
// fixture's proxy scenario, once it has said where it listens.
type listening struct {
	cmd            *exec.Cmd
	stderr         *lockedBuffer
	url, tokenFile string
	token          []byte
}

func startListening(t *testing.T, env []string, state, fx string, args ...string) listening {
	t.Helper()
	cmd := proxyCmd(t, env, fx, "proxy", append([]string{"--listen", "127.0.0.1:0"}, args...)...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	said := regexp.MustCompile(`mcpsh proxy: listening on (http://127\.0\.0\.1:(\d+)/mcp)\n`)
	var m []string
	deadline := time.Now().Add(30 * time.Second)
	// Two lines: where it listens, then where the token is.
	for m = said.FindStringSubmatch(stderr.String()); m == nil || !strings.Contains(stderr.String(), ".token"); m = said.FindStringSubmatch(stderr.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("mcpsh proxy never said where it listens:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	l := listening{cmd: cmd, stderr: stderr, url: m[1], tokenFile: filepath.Join(state, "proxy", m[2]+".token")}
	if !strings.Contains(stderr.String(), l.tokenFile) {
		t.Errorf("stderr does not say where the token is (%s):\n%s", l.tokenFile, stderr.String())
	}
	var err error
	if l.token, err = os.ReadFile(l.tokenFile); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), string(l.token)) {
		t.Errorf("stderr shows the token")
	}
	return l
}

// mcpsh proxy --listen, built: it says where it listens and where the
// token is (never the token); a go-sdk host connects with the URL and the
// token, lists and calls as on stdio; at an interrupt the token file goes.
func TestProxyListenServesAHostOverHTTP(t *testing.T) {
	t.Parallel()
	env, _, state := stateEnv(t)
	fx := t.TempDir()
	logFile := filepath.Join(t.TempDir(), "proxy.jsonl")
	l := startListening(t, env, state, fx, "--log", logFile)
	cmd, stderr, url, tokenFile, token := l.cmd, l.stderr, l.url, l.tokenFile, l.token

	c := mcp.NewClient(&mcp.Implementation{Name: "http-e2e-host", Version: "2"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport{string(token)}}}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\nstderr:\n%s", err, stderr.String())
	}
	if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Errorf("negotiated %s", v)
	}
	if _, text := hostCall(t, cs, "read"); text != "ran read" {
		t.Errorf("read: %q", text)
	}
	if res, text := hostCall(t, cs, "wipe"); !res.IsError || !strings.Contains(text, "nothing was sent") || fixture.CountIn(fx, "executions", "wipe") != 0 {
		t.Errorf("wipe: %q, executions %d", text, fixture.CountIn(fx, "executions", "wipe"))
	}
	cs.Close()

	cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	if _, err := os.Stat(tokenFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the token file outlived mcpsh proxy: %v", err)
	}
	r := mcpsh(t, opts{env: env}, "log", logFile, "--json")
	ls := proxyLog(t, r.out)
	if len(ls) != 2 || ls[0].Tool != "read" || ls[0].Status != "ok" || ls[0].Host == nil || ls[0].Host.Name != "http-e2e-host" || !ls[0].Proxy ||
		ls[1].Tool != "wipe" || ls[1].Status != "refused" {
		t.Errorf("logged %+v", ls)
	}
}

// The TypeScript SDK's Client as the host over --listen: the listing is
// the server's as the SDK sees it directly; a read passes; a destructive
// call is put to the host's user (accept runs it once, decline refuses
// it and nothing is sent); the log names the host.
func TestProxyTSHostOverListen(t *testing.T) {
	t.Parallel()
	env, _, state := stateEnv(t)
	fx := t.TempDir()
	logFile := filepath.Join(t.TempDir(), "proxy.jsonl")
	l := startListening(t, env, state, fx, "--log", logFile)
	auth := "Authorization: Bearer " + string(l.token)

	direct := tsOnly(tsHost(t, env, append([]string{"list", "--stdio"}, fixtureCmd("proxy", t.TempDir())[1:]...)...), "list")
	evs := tsHost(t, env, "--name", "ts-http-host", "--version", "5.0.1", "--elicit", "accept,decline",
		"list", "call:read", "call:wipe", "call:wipe", "--url", l.url, "--header", auth)
	proxied := tsOnly(evs, "list")
	if len(direct) != 1 || len(proxied) != 1 || !bytes.Equal(direct[0].Tools, proxied[0].Tools) || proxied[0].Pages != 2 {
		t.Fatalf("the TS host's listing over --listen differs from the server's:\ndirect:  %+v\nproxied: %+v", direct, proxied)
	}
	calls := tsOnly(evs, "call")
	if len(calls) != 3 || calls[0].text() != "ran read" || calls[1].text() != "ran wipe" ||
		calls[2].Result == nil || !calls[2].Result.IsError || !contains2(calls[2].text(), "nothing was sent", "declined") {
		t.Fatalf("calls: %+v", calls)
	}
	if asked := tsOnly(evs, "elicitation"); len(asked) != 2 || !strings.Contains(asked[0].Message, "by ts-http-host 5.0.1") {
		t.Errorf("asked: %+v", asked)
	}
	if n := fixture.CountIn(fx, "executions", "wipe"); n != 1 {
		t.Errorf("wipe reached the server %d times, want 1 (the accepted call only)", n)
	}
	// Without the token nothing is served.
	if c := tsConnectErr(t, "--url", l.url); c.Error == nil {
		t.Errorf("a TS host without the token connected: %+v", c)
	}

	r := mcpsh(t, opts{env: env}, "log", logFile, "--host", "ts-http-*", "--json")
	ls := proxyLog(t, r.out)
	if len(ls) != 3 || ls[1].ApprovedBy != "host" || ls[2].Status != "refused" || ls[0].Host == nil || ls[0].Host.Version != "5.0.1" {
		t.Fatalf("logged: %s", r.out)
	}
}

// tsConnectErr is host.js's first line when connecting may fail (it then
// exits 1 after saying why).
func tsConnectErr(t *testing.T, args ...string) tsEvent {
	t.Helper()
	out, _ := command(t, "node", append([]string{tsHostJS(t)}, args...)...).Output()
	var e tsEvent
	line, _, _ := strings.Cut(string(out), "\n")
	if json.Unmarshal([]byte(line), &e) != nil || e.Op != "connect" {
		t.Fatalf("host.js %q: first line %q", args, line)
	}
	return e
}
