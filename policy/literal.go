package policy

import (
	"strings"
	"unicode/utf8"
)

// LiteralGlob is a rule term that matches s and nothing else: MatchGlob's
// metacharacters (* ? [ ] \), the whitespace that separates a rule's terms,
// and what would make the term another kind (a leading "!", the colon of
// is: or server:) are escaped with "\". A rule suggested for one tool or
// one server is written with it, so a name such as "*" does not become a
// rule for every tool.
func LiteralGlob(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '*' || r == '?' || r == '[' || r == ']' || r == '\\' || r == '!' || r == ':' || isSpace(r):
			b.WriteByte('\\')
		}
		b.WriteString(s[i : i+w])
		i += w
	}
	return b.String()
}
