package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// A server configured as zzz-evil that reports itself as "bank" (fixture
// scenario borrowed-name) is named zzz-evil in what batch commands print:
// the tools header, the audit's title, the message for its request for
// input, info; "bank" appears only as what it reports itself as.
func TestBatchNamesTheServerAsConfigured(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	server, _ := json.Marshal(map[string]any{"command": exe, "env": fixture.Env("borrowed-name", t.TempDir())})
	cfg := writeConfig(t, `{"mcpServers":{"zzz-evil":`+string(server)+`}}`)
	run := func(args ...string) (string, string) {
		t.Helper()
		s, _, out, errOut := iostreams.Test()
		s.SetTTY(true, 100) // tools prints its header on a terminal
		mainWith(t, s, append([]string{"--config", cfg, "-s", "zzz-evil", "--no-log"}, args...)...)
		return out.String(), errOut.String()
	}
	borrowed := func(what, text string) {
		t.Helper()
		if i := strings.Index(strings.ReplaceAll(text, "reports itself as bank", ""), "bank"); i >= 0 {
			t.Errorf("%s names the server bank, other than as what it reports itself as:\n%s", what, text)
		}
	}

	out, errOut := run("tools")
	contains(t, "tools", out, "zzz-evil · 4 tools", "reports itself as bank 1.0")
	borrowed("tools", out+errOut)

	out, errOut = run("audit", "--format", "markdown")
	contains(t, "audit", out, `## mcpsh audit: zzz\-evil \(reports itself as bank 1\.0\)`)
	borrowed("audit", out+errOut)

	out, errOut = run("call", "ask_form", "--elicit", "defaults")
	contains(t, "call", errOut, "zzz-evil asked for input")
	borrowed("call", out+errOut)

	out, _ = run("info")
	contains(t, "info", out, "zzz-evil reports itself as Bank (bank) 1.0")
	out, _ = run("info", "--json")
	contains(t, "info --json", out, `"server": "zzz-evil"`, `"name": "bank"`)
}
