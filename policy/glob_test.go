package policy

import (
	"path"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*", "fs/delete_file", true},
		{"*", "", true},
		{"*", "a/b/c", true},
		{"fs/*", "fs/delete_file", true},
		{"fs/*", "fsx/delete_file", false},
		{"*/delete_*", "fs/delete_file", true},
		{"*delete*", "fs/x/delete_file", true},
		{"delete_*", "fs/delete_file", false},
		{"*_all", "delete_all", true},
		{"*_all", "delete_all_but", false},
		{"?", "é", true},
		{"?", "ab", false},
		{"?", "", false},
		{"??", "é", false},
		{"f?/x", "fs/x", true},
		{"a?c", "a/c", true},
		{"[abc]x", "bx", true},
		{"[abc]x", "dx", false},
		{"[a-z]", "q", true},
		{"[a-z]", "Q", false},
		{"[a-z0-9_]*", "9lives", true},
		{"[!a-z]", "Q", true},
		{"[!a-z]", "q", false},
		{"[^a-z]", "Q", true},
		{"[^a-z]", "q", false},
		{"[!a]", "/", true},
		{"[é-ë]", "ê", true},
		{`\*`, "*", true},
		{`\*`, "x", false},
		{`\?`, "?", true},
		{`\[x]`, "[x]", true},
		{`a\\b`, `a\b`, true},
		{`[\]\-]`, "]", true},
		{`[\]\-]`, "-", true},
		{`[\]\-]`, "x", false},
		{"[*]", "*", true},
		{"[*]", "x", false},
		{"a]b", "a]b", true},
		{"x-y", "x-y", true},
		{"**", "anything/at/all", true},
		{"a*b*c", "abc", true},
		{"a*b*c", "a/b/c", true},
		{"a*b*c", "acb", false},
		{"*a", "aaaab", false},
		{"ab*", "a", false},
		{"exact", "exact", true},
		{"exact", "exactly", false},
		{"exact", "inexact", false},
		// Malformed patterns match only their own text.
		{"a[b", "a[b", true},
		{"a[b", "ab", false},
		{"[", "[", true},
		{`end\`, `end\`, true},
		{`end\`, "end", false},
		{"[]", "[]", true},
		{"*[", "x[", false},
		{"", "", true},
		{"", "x", false},
		// Not UTF-8: a stray byte is one character that matches only itself.
		{"?", "\xff", true},
		{"\xff", "\xff", true},
		{"\xff", "\xfe", false},
		{"\xef\xbf\xbd", "\xff", false},
		// A stray byte in the pattern is a character too: it does not match
		// the first byte of a character ("\xc3" starts "É", "\xc3\x89").
		{"\xc3[^é]", "É", false},
		{"\xc3[^é]", "\xc3A", true},
		{"\xc3*", "Éx", false},
	}
	for _, tt := range tests {
		if got := MatchGlob(tt.pattern, tt.name); got != tt.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

// TestDenyStarCoversSlashedNames is the regression: with path.Match's star,
// which stops at "/", deny "*" did not match "fs/delete_file" and --yes ran it.
func TestDenyStarCoversSlashedNames(t *testing.T) {
	for _, rules := range [][]Rule{
		{{"*", Deny}},
		{{"fs/*", Allow}, {"*", Deny}},
		{{"*delete*", Deny}},
		{{"*/delete_*", Deny}},
	} {
		d := Decide(Request{Tool: "fs/delete_file", Hints: destructive, Trust: Trusted, Mode: Batch, Preapproved: true, Rules: rules})
		if d.Verdict != Refuse || !strings.Contains(d.Reason, "denied by rule") {
			t.Errorf("rules %v: %s %q, want a refusal by the deny rule", rules, d.Verdict, d.Reason)
		}
	}
}

func TestValidatePattern(t *testing.T) {
	good := []string{"*", "delete_*", "fs/*", "?", "[a-z]", "[!a-z]", "[^a-z]", `[\]]`, `[\-]`, `\*`, `\\`, "a]b", `[a-c\-]`, "[é-ë]"}
	for _, p := range good {
		if err := ValidatePattern(p); err != nil {
			t.Errorf("ValidatePattern(%q) = %v, want nil", p, err)
		}
	}
	bad := []struct{ pattern, msg string }{
		{"", "empty pattern"},
		{"a[b", `the "[" at byte 1 is never closed by "]"`},
		{"[", "never closed"},
		{"[a-", "never closed"},
		{`[\`, "never closed"},
		{"[!", "never closed"},
		{`end\`, `ends with a lone "\"`},
		{"[]", "is empty"},
		{"[!]", "is empty"},
		{"[^]", "is empty"},
		{"[a-]", "has no upper end"},
		{"[-a]", `"-" at byte 1 in a class must be escaped`},
		{"[a-b-c]", "must be escaped"},
		{"[\xff]", "not UTF-8"},
	}
	for _, tt := range bad {
		err := ValidatePattern(tt.pattern)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ValidatePattern(%q) = %v, want an error saying %q", tt.pattern, err, tt.msg)
		}
	}
}

// TestMatchGlobIsNotExponential would hang with naive backtracking over the stars.
func TestMatchGlobIsNotExponential(t *testing.T) {
	name := strings.Repeat("a", 2000)
	if MatchGlob(strings.Repeat("a*", 40)+"b", name) {
		t.Error("matched a name without b")
	}
	if !MatchGlob(strings.Repeat("*a", 40), name) {
		t.Error("did not match")
	}
}

// pathComparable reports whether path.Match's answer is the one MatchGlob must
// give: the name has no "/" (path.Match's star and ? stop there); the pattern is
// valid for both and opens no class with "!" (a negation here, a literal "!"
// there) and is UTF-8 (path.Match compares a literal byte for byte, so its
// stray "\xc3" matches the first byte of "É"; here it is a character of its
// own); and no star can skip into the middle of a character (path.Match's star
// skips bytes, so with "*??" it matches "€", three bytes, as three characters).
func pathComparable(pattern, name string) bool {
	if strings.Contains(name, "/") || strings.Contains(pattern, "[!") || !utf8.ValidString(pattern) || ValidatePattern(pattern) != nil {
		return false
	}
	if _, err := path.Match(pattern, name); err != nil {
		return false
	}
	return !strings.Contains(pattern, "*") || isASCII(name)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func TestMatchGlobAgreesWithPathMatch(t *testing.T) {
	if ok, _ := path.Match("*??", "€"); !ok {
		t.Log(`path.Match("*??", "€") no longer matches; pathComparable may admit non-ASCII names`)
	}
	patterns := []string{"*", "?", "??", "a*", "*a", "a*b", "*a*", "a?c", "[abc]", "[^abc]", "[a-c]x", "[^a-c]*",
		`\*`, `\?x`, `[\]]`, "x]y", "*_all", "delete_*", "get*_?", "[é-ë]", "?é*", "[^é]"}
	names := []string{"", "a", "b", "ab", "abc", "acb", "aXc", "x", "]", "*", "?x", "x]y", "delete_all", "get_x",
		"getmore_y", "é", "ê", "aé", "éé", "€", "\xff", "a\xffb"}
	compared := 0
	for _, p := range patterns {
		for _, n := range names {
			if !pathComparable(p, n) {
				continue
			}
			want, _ := path.Match(p, n)
			if got := MatchGlob(p, n); got != want {
				t.Errorf("MatchGlob(%q, %q) = %v, path.Match says %v", p, n, got, want)
			}
			compared++
		}
	}
	if compared < len(patterns)*len(names)/2 {
		t.Errorf("only %d of %d pairs were comparable", compared, len(patterns)*len(names))
	}
}
