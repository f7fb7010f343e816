package termtext

import "unicode/utf8"

// EscapeJSON returns b, JSON or a server's text shown as JSON is, with bytes
// that are not UTF-8 replaced by U+FFFD (as encoding/json reads them) and
// with DEL, the C1 controls (U+0080–U+009F), the bidi controls and the line
// and paragraph separators (U+2028, U+2029) written as \u escapes.
// encoding/json escapes the C0 controls but writes these raw, and a terminal
// showing --json output would act on them. In valid JSON they can only occur
// inside strings, so rewriting bytes is enough and the result decodes to the
// same value. With nothing to rewrite, b itself returns.
func EscapeJSON(b []byte) []byte {
	i := jsonEscapeAt(b)
	if i < 0 {
		return b
	}
	const hex = "0123456789abcdef"
	out := make([]byte, i, len(b)+12)
	copy(out, b[:i])
	for i < len(b) {
		r, w := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w == 1 {
			// A byte that is not UTF-8 (a raw 0x9b is a C1 CSI to some
			// terminals) becomes U+FFFD, as encoding/json reads it.
			out = utf8.AppendRune(out, utf8.RuneError)
		} else if jsonEscapes(r) {
			out = append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		} else {
			out = append(out, b[i:i+w]...)
		}
		i += w
	}
	return out
}

// jsonEscapeAt returns the offset of the first rune EscapeJSON rewrites, or -1.
func jsonEscapeAt(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < 0x7f {
			i++
			continue
		}
		r, w := utf8.DecodeRune(b[i:])
		if jsonEscapes(r) || r == utf8.RuneError && w == 1 {
			return i
		}
		i += w
	}
	return -1
}

// jsonEscapes reports the runes EscapeJSON writes as \u escapes.
func jsonEscapes(r rune) bool {
	return r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029' || isBidi(r)
}
