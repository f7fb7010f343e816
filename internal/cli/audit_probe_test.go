package cli

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// With stdout and stderr on a terminal, a probe of a hostile server puts none
// of its text on either raw, whatever the format; mcpsh's own status line
// (carriage return, erase line) is the only control allowed.
func TestAuditProbeOfAHostileServerOnATerminal(t *testing.T) {
	t.Parallel()
	sc, _ := fixture.Lookup("hostile")
	ts := httptest.NewServer((&fixture.Server{Scenario: sc, StateDir: t.TempDir(), Stderr: io.Discard}).Handler(fixture.HTTPOptions{SSE: true}))
	t.Cleanup(ts.Close)
	// In parallel: explode is retried, as policy allows a read-only call,
	// before the probe gives it up.
	for _, format := range []string{"text", "markdown", "json", "sarif"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			s, _, out, errOut := iostreams.Test()
			s.SetTTY(true, 100)
			code := mainWith(t, s, "--url", ts.URL, "--no-log", "audit", "--probe", "--format", format)
			if code != ExitFailure {
				t.Errorf("exit %d, want 1 (explode could not be probed)\n%s", code, errOut)
			}
			if bad := terminalControl(out.String()); bad != "" {
				t.Errorf("stdout carries a control near %q", bad)
			}
			if bad := terminalControl(strings.ReplaceAll(errOut.String(), "\r\x1b[K", "")); bad != "" {
				t.Errorf("stderr carries a control near %q", bad)
			}
			if !strings.Contains(errOut.String(), "could not probe explode") {
				t.Errorf("stderr: %s", errOut)
			}
		})
	}
}

func TestAuditFlags(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"audit", "--demo", "--format", "xml"}, `--format "xml": want text, markdown, json or sarif`},
		{[]string{"audit", "--demo", "--probe-timeout", "1s"}, "--probe-timeout needs --probe"},
		{[]string{"audit", "--demo", "--probe", "--probe-timeout", "-1s"}, "--probe-timeout -1s: want a positive duration"},
		{[]string{"audit", "--demo", "--probe", "--untrusted"}, "audit --probe: demo is untrusted"},
	} {
		s, _, _, errOut := iostreams.Test()
		if code := mainWith(t, s, tt.args...); code != ExitUsage || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// --json keeps its shape with --probe: an array of findings with tool, rule,
// severity and message, the probe's among them.
func TestAuditProbeJSONKeepsItsShape(t *testing.T) {
	t.Parallel()
	sc, _ := fixture.Lookup("probe")
	state := t.TempDir()
	ts := httptest.NewServer((&fixture.Server{Scenario: sc, StateDir: state, Stderr: io.Discard}).Handler(fixture.HTTPOptions{}))
	defer ts.Close()
	s, _, out, errOut := iostreams.Test()
	if code := mainWith(t, s, "--url", ts.URL, "--no-log", "audit", "--probe", "--json"); code != ExitFindings {
		t.Fatalf("exit %d, want 5\n%s", code, errOut)
	}
	var fs []map[string]any
	if err := json.Unmarshal(out.Bytes(), &fs); err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, f := range fs {
		if len(f) != 4 || f["tool"] == nil || f["rule"] == nil || f["severity"] == nil || f["message"] == nil {
			t.Errorf("a finding has fields %v: --json keeps tool, rule, severity, message", f)
		}
		rules[f["rule"].(string)] = true
	}
	if !rules["read-only-changed-state"] || !rules["output-schema-mismatch"] {
		t.Errorf("rules %v", rules)
	}
	if n := fixture.CountIn(state, "executions", "purge_items"); n != 0 {
		t.Errorf("purge_items ran %d times", n)
	}
}
