package cli

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// mainWith runs mcpsh in-process with streams the test shaped.
func mainWith(t *testing.T, s *iostreams.IOStreams, args ...string) int {
	t.Helper()
	vars := map[string]string{"HOME": t.TempDir()}
	return Main(context.Background(), args, s, func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
}

// terminalControl reports the first byte or rune of s a terminal would act on.
func terminalControl(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x061c:
			return strings.ToValidUTF8(s[max(i-30, 0):min(i+30, len(s))], "?")
		}
	}
	return ""
}

// With stdout and stderr on a terminal, nothing of a hostile server's text
// reaches either raw, whatever the command. (Colour is off: mcpsh's own
// colours are escapes too.)
func TestHostileServerTextOnATerminal(t *testing.T) {
	t.Parallel()
	sc, _ := fixture.Lookup("hostile")
	ts := httptest.NewServer((&fixture.Server{Scenario: sc, StateDir: t.TempDir(), Stderr: io.Discard}).Handler(fixture.HTTPOptions{SSE: true}))
	defer ts.Close()
	script := filepath.Join(t.TempDir(), "calls.mcpsh")
	os.WriteFile(script, []byte("say\nexplode\nshout\nsay mode=nope\n"), 0o600)
	log := filepath.Join(t.TempDir(), "log.jsonl")
	for _, args := range [][]string{
		{"tools"}, {"tools", "--json"},
		{"call", "say"}, {"call", "say", "--json"}, {"call", "say", "mode=nope"}, {"call", "say", "--example", "1"},
		{"call", "explode", "--retries", "1"}, {"call", "shout"}, {"call", "evi"}, {"call", "bad_hint"},
		{"run", "--retries", "1", script}, {"run", "--json", "--retries", "1", script},
		{"audit", "--fail-on", "none"}, {"audit", "--json"}, {"audit", "--format", "markdown"},
	} {
		s, _, out, errOut := iostreams.Test()
		s.SetTTY(true, 100)
		mainWith(t, s, append([]string{"--url", ts.URL, "--log", log}, args...)...)
		if bad := terminalControl(out.String()); bad != "" {
			t.Errorf("mcpsh %s: stdout (a terminal) carries a control near %q", strings.Join(args, " "), bad)
		}
		if bad := terminalControl(errOut.String()); bad != "" {
			t.Errorf("mcpsh %s: stderr carries a control near %q", strings.Join(args, " "), bad)
		}
	}
	for _, args := range [][]string{{"log", log}, {"log", log, "--json"}} {
		s, _, out, errOut := iostreams.Test()
		s.SetTTY(true, 100)
		if code := mainWith(t, s, args...); code != 0 {
			t.Fatalf("mcpsh %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		}
		if bad := terminalControl(out.String() + errOut.String()); bad != "" {
			t.Errorf("mcpsh %s: carries a control near %q", strings.Join(args, " "), bad)
		}
	}
}

// Colour on stderr follows whether stderr is a terminal, not stdout.
func TestColourFollowsEachStream(t *testing.T) {
	t.Parallel()
	for _, errTTY := range []bool{false, true} {
		s, _, _, errOut := iostreams.Test()
		s.StdoutTTY, s.Color = true, true
		s.StderrTTY, s.ColorErr = errTTY, errTTY
		if code := mainWith(t, s, "call", "--demo", "--no-log", "delete_note", "id=2"); code != ExitRefused {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		if got := strings.Contains(errOut.String(), "\x1b["); got != errTTY {
			t.Errorf("stderr a terminal: %v; colour on stderr: %v\n%q", errTTY, got, errOut.String())
		}
	}
}
