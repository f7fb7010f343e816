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
// and tabs. Invalid UTF-8 becomes U+FFFD.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	s = ansi.Strip(strings.ToValidUTF8(s, "\uFFFD"))
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			// dropped: a bare carriage return lets later text overwrite earlier text
		case unicode.IsControl(r):
			// C0 and C1 controls, DEL
		case r == '\u200e' || r == '\u200f' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069'):
			// bidirectional overrides can make text read differently from what it is
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
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
