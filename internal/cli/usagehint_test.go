package cli

import (
	"strings"
	"testing"
)

// The pointer to --help follows a command line of the wrong shape, and names
// the command that was run; a usage error that already says what to do
// (an unknown tool, an unknown server) is not followed by it.
func TestUsageHintOnlyForTheCommandLinesShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		hint string // "" when none may appear
	}{
		{"unknown flag", []string{"tools", "--bogus"}, "Run 'mcpsh tools --help' for usage."},
		{"too many arguments", []string{"log", "a", "b"}, "Run 'mcpsh log --help' for usage."},
		{"a subcommand's arguments", []string{"proxy", "config", "a", "b"}, "Run 'mcpsh proxy config --help' for usage."},
		{"unknown tool", []string{"call", "--demo", "no_such_tool"}, ""},
		{"unknown server", []string{"tools", "-s", "nosuch"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := run(t, env{}, tt.args...)
			wantCode(t, r, ExitUsage)
			switch {
			case tt.hint != "" && !strings.HasSuffix(r.errOut, tt.hint+"\n"):
				t.Errorf("stderr does not end with %q:\n%s", tt.hint, r.errOut)
			case tt.hint == "" && strings.Contains(r.errOut, "--help"):
				t.Errorf("stderr points at --help for a mistake it already explains:\n%s", r.errOut)
			}
		})
	}
}

// A name asked of a config file that does not exist does not blame the file.
func TestUnknownServerWithoutAConfigFileSaysWhereItWouldBe(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{vars: map[string]string{"XDG_CONFIG_HOME": t.TempDir()}}, "login", "-s", "nosuch", "--no-discover")
	wantCode(t, r, ExitUsage)
	if !strings.Contains(r.errOut, "does not exist yet") || strings.HasPrefix(r.errOut, "mcpsh: /") {
		t.Errorf("stderr:\n%s", r.errOut)
	}
}
