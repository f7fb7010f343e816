package uitest

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// sgr matches the styling sequences lipgloss emits.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// AssertTerminalSafe fails if s holds an escape sequence other than styling,
// or a control character other than a newline.
func AssertTerminalSafe(t *testing.T, what, s string) {
	t.Helper()
	rest := sgr.ReplaceAllString(s, "")
	for i, r := range rest {
		if r != '\n' && (unicode.IsControl(r) || r == '\u202e') {
			t.Errorf("%s: control character %U at byte %d: %q", what, r, i, around(rest, i))
			return
		}
	}
}

// AssertNoEscapes fails if s, drawn with no colour at all (Styles.NoColor), holds any ESC.
func AssertNoEscapes(t *testing.T, what, s string) {
	t.Helper()
	if i := strings.IndexByte(s, 0x1b); i >= 0 {
		t.Errorf("%s: escape at byte %d: %q", what, i, around(s, i))
	}
	AssertTerminalSafe(t, what, s)
}

func around(s string, i int) string {
	return s[max(0, i-20):min(len(s), i+20)]
}

// AssertWidth fails if a line of s is wider than width cells.
func AssertWidth(t *testing.T, what, s string, width int) {
	t.Helper()
	for n, l := range strings.Split(s, "\n") {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("%s: line %d is %d cells, more than %d: %q", what, n+1, w, width, ansi.Strip(l))
		}
	}
}

// Text is s as it reads: ANSI stripped, trailing spaces trimmed.
func Text(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
