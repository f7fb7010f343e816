package termtext

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// unsafeRune describes the first thing in s a terminal must not be given, or
// returns "".
func unsafeRune(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case unicode.IsControl(r), isBidi(r): // C0 (ESC, BEL…), DEL, C1
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// rawInJSON describes the first rune EscapeJSON must have escaped, or "".
func rawInJSON(b []byte) string {
	for _, r := range string(b) {
		if r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029' || isBidi(r) {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// isPrintableASCII reports a string a terminal shows as it is.
func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

var hostile = []string{
	"", "plain", "\x1b[31mred\x1b[0m", "\x1b]0;title\x07x", "\x1bPdcs", "\x1b]8;;http://e\x1b\\l\x1b]8;;\x1b\\",
	"\u009b31m", "\u009dosc", "\x9d", "a\rb\x00c\x7f", "\u202e\u2066\u061c\u200f", "\xff\xfe", "é👍", "\x1b", "\x1b[",
	"\x1b]0;a\x1b[31m", "\x1bPa\x18b", "\u2028\u2029", "\u0085",
	"\u00ad\u0600", "\u26a0\ufe0f", "\U0001F468\u200d\U0001F469", "\u0915\u093f", "\u093f", "\U0001F1EB", "\u1100\u1161", "a\u0d4e",
}

func FuzzSanitize(f *testing.F) {
	for _, s := range hostile {
		f.Add(s, "; not retried")
	}
	f.Fuzz(func(t *testing.T, x, y string) {
		for _, in := range []string{x, x + "\x1bP" + y} {
			got := Sanitize(in)
			if bad := unsafeRune(got); bad != "" {
				t.Fatalf("Sanitize(%q) = %q holds %s", in, got, bad)
			}
			if why := agreesEverywhere(got); why != "" {
				t.Fatalf("Sanitize(%+q) = %+q %s", in, got, why)
			}
			if again := Sanitize(got); again != got {
				t.Fatalf("Sanitize is not idempotent on %q: %q, then %q", in, got, again)
			}
			if l := Line(in); strings.ContainsAny(l, "\n\t") || unsafeRune(l) != "" {
				t.Fatalf("Line(%q) = %q", in, l)
			}
			// Safe is exactly "nothing a terminal acts on": what Sanitize
			// leaves alone is safe, and so is all it gives back.
			if Safe(in) != (unsafeRune(in) == "") || !Safe(got) || got == in && !Safe(in) {
				t.Fatalf("Safe(%q) = %v, Safe(Sanitize) = %v", in, Safe(in), Safe(got))
			}
			if SafeLine(in) && (!Safe(in) || strings.ContainsAny(Line(in), "\n\t") || strings.ContainsAny(in, "\n\t\u2028\u2029")) {
				t.Fatalf("SafeLine(%q)", in)
			}
		}
		if isPrintableASCII(y) {
			if got := Sanitize(x + "\x1bP" + y); !strings.HasSuffix(got, y) {
				t.Fatalf("Sanitize(%q) = %q lost the text after an open DCS", x+"\x1bP"+y, got)
			}
		}
	})
}

func FuzzEscapeJSON(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("del \x7f c1 \u0080\u009f bidi \u202a\u202e\u2066\u2069\u200e\u200f\u061c seps \u2028\u2029")
	f.Fuzz(func(t *testing.T, s string) {
		in, err := json.Marshal(map[string]any{s: []string{s, "k"}})
		if err != nil {
			t.Fatal(err)
		}
		out := EscapeJSON(in)
		if bad := rawInJSON(out); bad != "" {
			t.Fatalf("EscapeJSON(%s) = %s holds %s raw", in, out, bad)
		}
		var a, b map[string][]string
		if err := json.Unmarshal(in, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatalf("EscapeJSON(%s) = %s: %v", in, out, err)
		}
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("EscapeJSON changed the value: %q, then %q", a, b)
		}
		if utf8.ValidString(s) && (len(b[s]) != 2 || b[s][0] != s) {
			t.Fatalf("%q did not come back: %q", s, b)
		}
	})
}
