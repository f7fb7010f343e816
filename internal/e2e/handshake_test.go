package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

func infoProtocol(t *testing.T, r result) string {
	t.Helper()
	wantCode(t, r, 0)
	var j struct {
		Protocol string `json:"protocol"`
	}
	if err := json.Unmarshal([]byte(r.out), &j); err != nil {
		t.Fatalf("info --json: %v\n%s", err, r.out)
	}
	return j.Protocol
}

// A server that takes longer than the 3 s probe to write its first byte,
// then answers server/discover, is waited for: started once, no warning,
// and it speaks 2026-07-28.
func TestHostileSlowServerIsStartedOnce(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	state := t.TempDir()
	r := mcpsh(t, opts{env: env}, append([]string{"info", "--json"}, fixtureCmd("slower-discover", state)...)...)
	if p := infoProtocol(t, r); p != "2026-07-28" {
		t.Errorf("protocol %q", p)
	}
	if n := len(fixture.Lines(state, "starts")); n != 1 || strings.Contains(r.errOut, "warning") {
		t.Errorf("started %d times; stderr:\n%s", n, r.errOut)
	}
}

// A server that ignores server/discover goes on with initialize on the
// same connection, started once, with a warning that says so; the state
// folder remembers, so its next start asks with initialize at once: no
// probe, no wait, no warning.
func TestHostileServerThatIgnoresTheProbeIsRemembered(t *testing.T) {
	t.Parallel()
	env, _, stateDir := stateEnv(t)
	state := t.TempDir()
	r := mcpsh(t, opts{env: env}, append([]string{"info", "--json"}, fixtureCmd("ignores-discover", state)...)...)
	if p := infoProtocol(t, r); p != "2025-11-25" {
		t.Errorf("protocol %q", p)
	}
	contains(t, "stderr", r.errOut, "the server left server/discover (the 2026-07-28 handshake) unanswered for 3s after the server first wrote",
		"without starting the server again: it speaks 2025-11-25")
	r = mcpsh(t, opts{env: env}, append([]string{"info", "--json"}, fixtureCmd("ignores-discover", state)...)...)
	if p := infoProtocol(t, r); p != "2025-11-25" || r.errOut != "" {
		t.Errorf("second start: protocol %q, stderr %q", p, r.errOut)
	}
	if starts, probes := len(fixture.Lines(state, "starts")), fixture.CountIn(state, "methods", "server/discover"); starts != 2 || probes != 1 {
		t.Errorf("two runs: %d starts, %d probes; want 2 and 1", starts, probes)
	}
	b, err := os.ReadFile(filepath.Join(stateDir, "handshakes.json"))
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "handshakes file", string(b), `"discover": "unanswered"`)
}
