package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/mcpsh/mcpsh/internal/iostreams"
)

// With colour on, the tools table draws each class in the theme's colour for
// it, in stdout's own profile: sixteen colours by default, bold and no colour
// where the terminal has none.
func TestToolsColourFollowsTheThemeAndProfile(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		profile colorprofile.Profile
		want    []string
		not     []string
	}{
		// read-only green, write yellow, destructive red, names faint
		{colorprofile.ANSI, []string{"\x1b[1;32mRead-only (7)", "\x1b[1;33mWrite (5)", "\x1b[1;31mDestructive (5)", "\x1b[2m"}, nil},
		{colorprofile.Unknown, []string{"\x1b[1;32mRead-only (7)"}, nil},
		{colorprofile.ASCII, []string{"\x1b[1mRead-only (7)", "\x1b[2m"}, []string{"[32m", "[33m", "[31m", "38;"}},
		{colorprofile.ANSI256, []string{"\x1b[1;32mRead-only (7)"}, nil},
	} {
		s, _, out, _ := iostreams.Test()
		s.SetTTY(true, 100)
		s.Color, s.Profile = true, c.profile
		if code := mainWith(t, s, "tools", "--demo", "--no-log"); code != ExitOK {
			t.Fatalf("exit %d", code)
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: stdout lacks %q:\n%q", c.profile, w, out.String())
			}
		}
		for _, w := range c.not {
			if strings.Contains(out.String(), w) {
				t.Errorf("%v: stdout has %q:\n%q", c.profile, w, out.String())
			}
		}
	}
}

// Stderr is drawn in its own profile, whatever stdout's is: the question's
// mark is yellow in sixteen colours, plain where stderr has none.
func TestStderrHasItsOwnProfile(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		out, err colorprofile.Profile
		want     bool
	}{{colorprofile.ASCII, colorprofile.ANSI, true}, {colorprofile.ANSI, colorprofile.ASCII, false}} {
		s, _, _, errOut := iostreams.Test()
		s.SetTTY(true, 100)
		s.Color, s.Profile = true, c.out
		s.ColorErr, s.ProfileErr = true, c.err
		if code := mainWith(t, s, "call", "--demo", "--no-log", "delete_note", "id=2"); code != ExitRefused {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		if got := strings.Contains(errOut.String(), "\x1b[33m?"); got != c.want {
			t.Errorf("stdout %v, stderr %v: yellow mark on stderr %v, want %v:\n%q", c.out, c.err, got, c.want, errOut.String())
		}
	}
}
