package policy

import (
	"fmt"
	"unicode/utf8"
)

// MatchGlob reports whether name matches the rule glob pattern. Tool names are
// not paths, and servers and proxies put "/" in them ("fs/delete_file"), so
// unlike path.Match a star crosses "/": deny "*" must deny every tool.
//
// The syntax:
//
//	element  matches
//	*        any run of characters, "/" included, or none
//	?        exactly one character (rune)
//	[abc]    one character in the class
//	[a-z]    one character in the range (a class may hold several: [a-z0-9_])
//	[!a-z]   one character not in the class; [^a-z] is the same
//	\x       the character x itself (also inside a class: [\]\-])
//
// Inside a class, "]" and "-" must be escaped unless they close the class or
// make a range; a class holds at least one character. Any other character
// matches itself, and the whole name must match.
//
// A malformed pattern (see ValidatePattern) matches only its own literal text,
// so a deny rule with a typo keeps denying the tool it names. Matching takes
// time proportional to len(pattern)·len(name) at worst, never exponential.
func MatchGlob(pattern, name string) bool {
	if globError(pattern) != "" {
		return pattern == name
	}
	return matchGlob(pattern, name)
}

// matchGlob is MatchGlob for a pattern known to be well formed.
func matchGlob(pattern, name string) bool {
	// The classic wildcard walk: every element other than * consumes exactly one
	// character, so on a mismatch it is enough to let the last * seen take one
	// more character and resume after it.
	p, n := 0, 0
	star, starN := -1, 0
	for n < len(name) {
		if p < len(pattern) {
			if pattern[p] == '*' {
				star, starN = p, n
				p++
				continue
			}
			if next, width, ok := matchOne(pattern, p, name[n:]); ok {
				p, n = next, n+width
				continue
			}
		}
		if star < 0 {
			return false
		}
		_, width := utf8.DecodeRuneInString(name[starN:])
		starN += width
		p, n = star+1, starN
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// matchOne matches the single-character element of a valid pattern at p against
// the first character of s, returning where the element ends and how many
// bytes of s it took. A byte that is not UTF-8 is a character of its own.
func matchOne(pattern string, p int, s string) (next, width int, ok bool) {
	r, width := utf8.DecodeRuneInString(s)
	switch pattern[p] {
	case '?':
		return p + 1, width, true
	case '[':
		next, in := class(pattern, p, r)
		return next, width, in
	case '\\':
		p++
	}
	_, lw := utf8.DecodeRuneInString(pattern[p:])
	return p + lw, width, width == lw && s[:width] == pattern[p:p+lw]
}

// class reports whether r is in the well-formed class starting at pattern[p]
// ('['), and where the class ends.
func class(pattern string, p int, r rune) (next int, in bool) {
	p++
	negated := pattern[p] == '!' || pattern[p] == '^'
	if negated {
		p++
	}
	for pattern[p] != ']' {
		var lo, hi rune
		lo, p = classChar(pattern, p)
		hi = lo
		if pattern[p] == '-' {
			hi, p = classChar(pattern, p+1)
		}
		in = in || lo <= r && r <= hi
	}
	return p + 1, in != negated
}

// classChar reads one possibly escaped character of a well-formed class.
func classChar(pattern string, p int) (rune, int) {
	if pattern[p] == '\\' {
		p++
	}
	r, w := utf8.DecodeRuneInString(pattern[p:])
	return r, p + w
}

// ValidatePattern reports a malformed glob, so a caller can name it instead
// of the glob quietly matching only its own text. A rule's whole text is
// checked with ValidateRule, which checks its globs with this.
func ValidatePattern(p string) error {
	if msg := globError(p); msg != "" {
		return fmt.Errorf("bad glob %q: %s", p, msg)
	}
	return nil
}

// globError says what is wrong with a pattern; empty when it is well formed.
func globError(pattern string) string {
	if pattern == "" {
		return "empty pattern"
	}
	for p := 0; p < len(pattern); {
		switch pattern[p] {
		case '\\':
			if p+1 == len(pattern) {
				return `it ends with a lone "\" (write "\\" for a backslash)`
			}
			_, w := utf8.DecodeRuneInString(pattern[p+1:])
			p += 1 + w
		case '[':
			next, msg := classError(pattern, p)
			if msg != "" {
				return msg
			}
			p = next
		default:
			p++
		}
	}
	return ""
}

// classError checks the class starting at pattern[start] ('[') and returns
// where it ends.
func classError(pattern string, start int) (int, string) {
	unclosed := fmt.Sprintf(`the "[" at byte %d is never closed by "]"`, start)
	p := start + 1
	if p < len(pattern) && (pattern[p] == '!' || pattern[p] == '^') {
		p++
	}
	for first := true; ; first = false {
		if p == len(pattern) {
			return 0, unclosed
		}
		if pattern[p] == ']' {
			if first {
				return 0, fmt.Sprintf(`the class at byte %d is empty (write "\]" for a literal "]")`, start)
			}
			return p + 1, ""
		}
		var msg string
		if p, msg = classCharError(pattern, p, unclosed); msg != "" {
			return 0, msg
		}
		if p < len(pattern) && pattern[p] == '-' {
			if p, msg = classCharError(pattern, p+1, unclosed); msg != "" {
				return 0, msg
			}
		}
	}
}

// classCharError checks one possibly escaped character of a class at p.
func classCharError(pattern string, p int, unclosed string) (int, string) {
	if p == len(pattern) {
		return 0, unclosed
	}
	switch pattern[p] {
	case '-':
		return 0, fmt.Sprintf(`the "-" at byte %d in a class must be escaped as "\-"`, p)
	case ']':
		return 0, fmt.Sprintf(`the range at byte %d has no upper end (write "\-" for a literal "-")`, p-1)
	case '\\':
		p++
		if p == len(pattern) {
			return 0, unclosed
		}
	}
	r, w := utf8.DecodeRuneInString(pattern[p:])
	if r == utf8.RuneError && w == 1 {
		return 0, fmt.Sprintf("byte %d in a class is not UTF-8", p)
	}
	return p + w, ""
}
