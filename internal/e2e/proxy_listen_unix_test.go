//go:build unix

package e2e

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/fixture"
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

// mcpsh proxy --listen, built: it says where it listens and where the
// token is (never the token); a go-sdk host connects with the URL and the
// token, lists and calls as on stdio; at an interrupt the token file goes.
func TestProxyListenServesAHostOverHTTP(t *testing.T) {
	env, _, state := stateEnv(t)
	fx := t.TempDir()
	logFile := filepath.Join(t.TempDir(), "proxy.jsonl")
	cmd := proxyCmd(env, fx, "proxy", "--listen", "127.0.0.1:0", "--log", logFile)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	listening := regexp.MustCompile(`mcpsh proxy: listening on (http://127\.0\.0\.1:(\d+)/mcp)\n`)
	var m []string
	deadline := time.Now().Add(30 * time.Second)
	for m = listening.FindStringSubmatch(stderr.String()); m == nil; m = listening.FindStringSubmatch(stderr.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("mcpsh proxy never said where it listens:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	url, port := m[1], m[2]
	tokenFile := filepath.Join(state, "proxy", port+".token")
	if !strings.Contains(stderr.String(), tokenFile) {
		t.Errorf("stderr does not say where the token is (%s):\n%s", tokenFile, stderr.String())
	}
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), string(token)) {
		t.Errorf("stderr shows the token")
	}

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
