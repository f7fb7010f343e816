// Package layout holds the text helpers every part of the interactive view
// draws with: wrapping, cutting and padding to cells, never to bytes, and
// Lines, the writer of a pane's lines.
package layout

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// Wrap wraps s (which may be styled, but holds no newline) to width cells,
// breaking long words, and guarantees no line is wider.
func Wrap(s string, width int) []string {
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

// ExpandTabs turns tabs into spaces up to the next 8-cell tab stop, so
// widths measured are widths drawn.
func ExpandTabs(s string) string {
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

// RuneStart is the largest n' ≤ n that does not split a UTF-8 sequence.
func RuneStart(s string, n int) int {
	n = min(max(0, n), len(s))
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// WrapCapped wraps text (sanitized, lines kept) to width and keeps at most n
// lines, the last one saying more was cut.
func WrapCapped(text string, width, n int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		out = append(out, Wrap(ExpandTabs(para), width)...)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) > n && n > 0 {
		out = out[:n]
		out[n-1] = termtext.Truncate(out[n-1]+" …", width)
	}
	return out
}

// FitLines cuts or pads s to exactly h lines of at most w cells.
func FitLines(s string, w, h int) []string {
	ls := strings.Split(s, "\n")
	if len(ls) > h {
		ls = ls[:h]
	}
	for i, l := range ls {
		if ansi.StringWidth(l) > w {
			ls[i] = ansi.Truncate(l, w, "…")
		}
	}
	for len(ls) < h {
		ls = append(ls, "")
	}
	return ls
}
