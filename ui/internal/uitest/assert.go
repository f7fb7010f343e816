package uitest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/testing/tmuxwidth"
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

// AssertWidth fails if a line of s is wider than width cells, or is drawn
// at another width than it measures (see Cells).
func AssertWidth(t *testing.T, what, s string, width int) {
	t.Helper()
	for n, l := range strings.Split(s, "\n") {
		w, err := Cells(l)
		if err != nil {
			t.Errorf("%s: line %d: %v: %+q", what, n+1, err, ansi.Strip(l))
		}
		if w > width {
			t.Errorf("%s: line %d is %d cells, more than %d: %q", what, n+1, w, width, ansi.Strip(l))
		}
	}
}

// Cells is how wide a line is drawn, the widest of three measures, and an
// error when they disagree: lipgloss and mcpsh measure grapheme clusters,
// Bubble Tea's renderer (unless the terminal says it clusters) adds up
// characters, and so does a terminal, by its own table (tmux's, measured).
// On text termtext sanitised the three agree.
func Cells(l string) (int, error) {
	g, wc := ansi.StringWidth(l), ansi.StringWidthWc(l)
	tm, err := tmuxwidth.Line(l)
	w := max(g, wc, tm)
	switch {
	case err != nil:
		return w, err
	case g != wc || g != tm:
		return w, fmt.Errorf("measures %d cells as clusters, %d as characters, and tmux draws %d", g, wc, tm)
	}
	return w, nil
}

// Text is s as it reads: ANSI stripped, trailing spaces trimmed.
func Text(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
