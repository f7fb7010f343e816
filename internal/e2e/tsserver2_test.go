package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// What protocol 2026-07-28 removed, against a server on the TypeScript SDK
// 2.x (.ci/ts-server-2, installed by .ci/install-ts-server-2; its contract is
// at the top of server.mjs): that SDK answers ping with "Method not found"
// over stdio and -32602 over HTTP, and sends a request's log messages only
// when the request's _meta names a level.

// tsServer2 is the bundle .ci/install-ts-server-2 built of the server
// (server.bundle.mjs: it loads in less CPU than the SDK's modules) in
// $MCPSH_TS_SERVER2_DIR, else $MCPSH_CACHE/ts-server-2, else
// <repo>/.cache/ts-server-2. Under CI a missing server (or node) fails the
// test: a skipped check would pass without checking anything.
func tsServer2(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MCPSH_TS_SERVER2_DIR")
	if dir == "" {
		cache := os.Getenv("MCPSH_CACHE")
		if cache == "" {
			cache = filepath.Join(repoRoot, ".cache")
		}
		dir = filepath.Join(cache, "ts-server-2")
	}
	script := filepath.Join(dir, "server.bundle.mjs")
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not on PATH (the TypeScript SDK 2.x test server needs Node.js >= 20)"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server", "package.json")); err != nil {
		missing = "the TypeScript SDK 2.x test server is not installed at " + dir
	} else if _, err := os.Stat(script); err != nil {
		missing = script + " is missing"
	}
	tsMissing(t, missing, ".ci/install-ts-server-2", "$MCPSH_TS_SERVER2_DIR", "ts-server-2")
	return script
}

// tsServer2Targets are mcpsh's target arguments for the server over stdio
// and over streamable HTTP (one server for the whole test).
func tsServer2Targets(t *testing.T) map[string][]string {
	t.Helper()
	script := tsServer2(t)
	return map[string][]string{
		"stdio": {"--", "node", script},
		"http":  {"--url", listeningServer(t, "the TypeScript SDK 2.x test server", command(t, "node", script, "--http", "--port", "0"))},
	}
}

func TestPingWhereTheProtocolHasNone(t *testing.T) {
	t.Parallel()
	for name, target := range tsServer2Targets(t) {
		t.Run(name, func(t *testing.T) {
			r := mcpsh(t, opts{}, at(target, "ping", noLog, "--count", "2")...)
			wantCode(t, r, 0)
			if strings.Count(r.out, "pong from") != 2 || strings.Count(r.out, "(server/discover)") != 2 {
				t.Errorf("ping at 2026-07-28:\n%s%s", r.out, r.errOut)
			}
			for _, tt := range []struct{ protocol, method string }{
				{"auto", "server/discover"},
				{"2025-11-25", "ping"},
			} {
				r = mcpsh(t, opts{}, at(target, "ping", noLog, "--json", "--protocol", tt.protocol)...)
				wantCode(t, r, 0)
				var got struct {
					Method, Protocol string
					RTTMs            []float64
				}
				if err := json.Unmarshal([]byte(r.out), &got); err != nil {
					t.Fatalf("ping --json --protocol %s: %v\n%s", tt.protocol, err, r.out)
				}
				if got.Method != tt.method || len(got.RTTMs) != 1 || got.RTTMs[0] <= 0 ||
					(tt.protocol != "auto" && got.Protocol != tt.protocol) || (tt.protocol == "auto" && got.Protocol != "2026-07-28") {
					t.Errorf("ping --json --protocol %s: %+v, want method %s", tt.protocol, got, tt.method)
				}
			}
		})
	}
}

func TestServerLogAtEveryProtocol(t *testing.T) {
	t.Parallel()
	for name, target := range tsServer2Targets(t) {
		t.Run(name, func(t *testing.T) {
			for _, protocol := range []string{"auto", "2025-11-25"} {
				r := mcpsh(t, opts{}, at(target, "call", noLog, "log_levels", "--protocol", protocol, "--server-log", "debug")...)
				wantCode(t, r, 0)
				contains(t, "log_levels at "+protocol, r.out, "logged")
				contains(t, "the server's log at "+protocol, r.errOut,
					"mcpsh: server log: debug [ts-server-2]: debug message",
					"mcpsh: server log: notice [ts-server-2]: notice message",
					"mcpsh: server log: error [ts-server-2]: error message")
				if strings.Contains(r.errOut, "warning: asking for the server's log messages") {
					t.Errorf("at %s mcpsh could not ask for the log:\n%s", protocol, r.errOut)
				}
			}
			// The level filters at 2026-07-28: the server sends in order,
			// each before the result, so once warning has come info would have.
			// (At 2025-11-25 over HTTP the SDK serves every request from a new
			// instance, which forgets logging/setLevel.)
			r := mcpsh(t, opts{}, at(target, "call", noLog, "log_levels", "--server-log", "warning")...)
			wantCode(t, r, 0)
			contains(t, "the server's log from warning", r.errOut,
				"mcpsh: server log: warning [ts-server-2]: warning message",
				"mcpsh: server log: error [ts-server-2]: error message")
			if strings.Contains(r.errOut, "info message") {
				t.Errorf("--server-log warning let an info message through:\n%s", r.errOut)
			}
		})
	}
}
