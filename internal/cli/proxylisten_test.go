package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// --listen beyond this machine, or its companions without it, are usage
// errors naming the flag; nothing is started.
func TestProxyListenRefusesAddressesBeyondThisMachine(t *testing.T) {
	started := filepath.Join(t.TempDir(), "started")
	target := []string{"--", "sh", "-c", "touch " + started}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:0"}, `--listen "0.0.0.0:0": not a loopback address; serve on 127.0.0.1:PORT`},
		{[]string{"--listen", ":8765"}, `--listen ":8765" listens on every interface: not a loopback address; serve on 127.0.0.1:PORT, [::1]:PORT or localhost:PORT, or add --listen-remote`},
		{[]string{"--listen", "[::]:8765"}, "not a loopback address"},
		{[]string{"--listen", "192.0.2.1:8765"}, `--listen "192.0.2.1:8765": not a loopback address`},
		{[]string{"--listen", "example.com:8765"}, `names no IP address`},
		{[]string{"--listen", "127.0.0.1"}, `--listen "127.0.0.1" is not HOST:PORT`},
		{[]string{"--listen", "127.0.0.1:70000"}, `the port is not a number from 0 to 65535`},
		{[]string{"--listen", "0.0.0.0:0", "--listen-remote", "--no-token"}, "--no-token and --listen-remote: a proxy reachable from other machines requires its token"},
		{[]string{"--no-token"}, "--no-token goes with --listen"},
		{[]string{"--allow-host", "devbox"}, "--allow-host goes with --listen"},
		{[]string{"--listen-remote"}, "--listen-remote goes with --listen"},
	} {
		// A refusal returns at once; a proxy that started would serve
		// until the test's end.
		done := make(chan result, 1)
		go func() { r, _ := run(t, env{}, append(append([]string{"proxy"}, tt.args...), target...)...); done <- r }()
		var r result
		select {
		case r = <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%q: mcpsh proxy started serving", tt.args)
		}
		if r.code != ExitUsage || !strings.Contains(r.errOut, tt.want) || r.out != "" {
			t.Errorf("%q: exit %d, stderr %q; want %d saying %q", tt.args, r.code, r.errOut, ExitUsage, tt.want)
		}
	}
	if _, err := os.Stat(started); err == nil {
		t.Error("a refused --listen started the server")
	}
}

func TestProxyHelpExplainsListen(t *testing.T) {
	r, _ := run(t, env{}, "proxy", "--help")
	wantCode(t, r, 0)
	contains(t, "proxy --help", r.out, "--listen HOST:PORT", "--listen-remote", "--allow-host", "--allow-origin", "--no-token",
		"Authorization: Bearer", "proxy/PORT.token", "mcpsh proxy --listen 127.0.0.1:8765 -s github")
}
