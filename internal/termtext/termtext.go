// Package termtext makes text from servers safe to put on a terminal. A server's
// text is data: escape sequences in it could recolour, retitle or rewrite the
// user's screen, and control characters could hide what was really printed.
package termtext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Sanitize removes escape sequences and control characters, keeping newlines
// and tabs, and makes the text measure as terminals draw it (width.go).
// Invalid UTF-8 becomes U+FFFD. A complete escape sequence goes
// whole; one that never ends (see drop) loses only its introducer, because
// mcpsh prints its own notices after server text and a terminal string left
// open would swallow them.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	invalid := false // the last thing written was U+FFFD for invalid bytes
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			// one U+FFFD for a run of invalid bytes, as strings.ToValidUTF8 does
			if !invalid {
				b.WriteRune(utf8.RuneError)
			}
			invalid = true
			i++
			continue
		case r == 0x1b || r >= 0x80 && r <= 0x9f:
			w = drop(s, i)
		case !visible(r):
		case r >= hangulL && r < 0xd7a4:
			if syl, n := hangul(r, s[i:]); n > 0 {
				b.WriteRune(syl)
				w = n
				break
			}
			fallthrough
		default:
			if wr := widthRune(r); wr != r {
				b.WriteRune(wr)
			} else {
				b.WriteString(s[i : i+w])
			}
		}
		invalid = false
		i += w
	}
	return settle(b.String())
}

// visible reports whether a rune may reach the terminal: anything but controls
// (newline and tab excepted; a carriage return would let later text overwrite
// earlier text) and the bidirectional controls, which can make text read
// differently from what it is.
func visible(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return true
	case unicode.IsControl(r), isBidi(r):
		return false
	}
	return true
}

// isBidi reports the bidirectional formatting controls: marks, embeddings,
// overrides and isolates.
func isBidi(r rune) bool {
	return r == '\u061c' || r == '\u200e' || r == '\u200f' ||
		r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}

// Safe reports whether s holds nothing a terminal acts on: it is valid
// UTF-8 with no escape sequence, no control character but newline and tab,
// and no bidirectional control. Sanitize changes safe text only in how it
// measures (width.go: disputed characters, clusters, edges), so Safe, not
// equality with Sanitize, tells whether a value may be kept as it came and
// shown or sent back as it is: a suggestion put in a field, an example, a
// tool's name in a script.
func Safe(s string) bool {
	if isPlain(s) {
		return true
	}
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !visible(r) {
			return false
		}
	}
	return true
}

// SafeLine is Safe for text that must stay on one line: no newline or tab
// either, nor a line or paragraph separator, which Sanitize makes a newline.
func SafeLine(s string) bool {
	return Safe(s) && !strings.ContainsAny(s, "\n\t\u2028\u2029")
}

// Line sanitizes s and folds it onto one line, for tables and status lines.
func Line(s string) string {
	s = Sanitize(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isPlain is the fast path: printable ASCII, newlines and tabs only.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// Truncate cuts s to at most width terminal cells, ending with "…" when cut.
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// TruncateLeft cuts s to at most width cells from the left, keeping its end
// (the file name of a path), starting with "…" when cut.
func TruncateLeft(s string, width int) string {
	w := ansi.StringWidth(s)
	if w <= width {
		return s
	}
	return ansi.TruncateLeft(s, w-width+1, "…")
}

// Pad pads s with spaces to width cells; wider text is left as it is.
func Pad(s string, width int) string {
	if n := ansi.StringWidth(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// Spread puts left at the start and right at the end of width cells, with
// at least minGap spaces between them. fits is false when they need more
// than width: the two are then joined by minGap spaces, for the caller to cut
// or to drop right.
func Spread(left, right string, width, minGap int) (line string, fits bool) {
	gap := width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < minGap {
		return left + strings.Repeat(" ", max(minGap, 0)) + right, false
	}
	return left + strings.Repeat(" ", gap) + right, true
}

// Cell is one cell of a row of columns (Row): Text is cut to Width cells,
// with "…" when cut, and padded to it, on the left when Right; a Width of 0
// leaves the text as it is. Style, when set, draws the fitted text, padding
// included.
type Cell struct {
	Text  string
	Width int
	Right bool
	Style func(string) string
}

// Row draws cells side by side, gap between them: the one way mcpsh lays out
// columns, in the batch commands and the interactive view alike.
func Row(gap string, cells ...Cell) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteString(gap)
		}
		s := c.Text
		if c.Width > 0 {
			s = Truncate(s, c.Width)
			if n := ansi.StringWidth(s); c.Right && n < c.Width {
				s = strings.Repeat(" ", c.Width-n) + s
			} else {
				s = Pad(s, c.Width)
			}
		}
		if c.Style != nil {
			s = c.Style(s)
		}
		b.WriteString(s)
	}
	return b.String()
}
