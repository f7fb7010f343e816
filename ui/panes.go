package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// Text helpers shared by the panes (ui/pane) and what draws their lines:
// wrapping, cutting and padding to cells, never to bytes.

// paneWrap wraps s (which may be styled, but holds no newline) to width cells,
// breaking long words, and guarantees no line is wider.
func paneWrap(s string, width int) []string {
	width = max(1, width)
	if ansi.StringWidth(s) <= width {
		return []string{s}
	}
	out := strings.Split(ansi.Wrap(s, width, ""), "\n")
	for i, l := range out {
		out[i] = termtext.Truncate(l, width)
	}
	return out
}

// paneExpandTabs turns tabs into spaces up to the next 8-cell tab stop, so
// widths measured are widths drawn.
func paneExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for i, seg := range strings.Split(s, "\t") {
		if i > 0 {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		}
		b.WriteString(seg)
		col += ansi.StringWidth(seg)
	}
	return b.String()
}

// paneRuneStart is the largest n' ≤ n that does not split a UTF-8 sequence.
func paneRuneStart(s string, n int) int {
	n = min(max(0, n), len(s))
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
