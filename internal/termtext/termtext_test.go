package termtext

import (
	"strings"
	"testing"
)

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n\tindented", "plain text\n\tindented"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b]0;pwned title\x07after", "after"},
		{"\x1b]8;;https://evil.example\x07link\x1b]8;;\x07", "link"},
		{"\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"over\rwrite", "overwrite"},
		{"bell\x07 back\x08space", "bell backspace"},
		// U+009B is CSI in its C1 form: the whole sequence goes, as with ESC [.
		{"c1 \u009b31m csi", "c1  csi"},
		{"c1 \u0085nel \u009cst", "c1 nel st"},
		{"bidi \u202egnp.exe", "bidi gnp.exe"},
		{"arabic mark \u061cx", "arabic mark x"},
		{"isolates \u2066a\u2069 marks \u200e\u200f", "isolates a marks "},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"bad \xff\xfe run", "bad \uFFFD run"},
		{"raw c1 byte \x9b31m", "raw c1 byte \uFFFD31m"},
		{"émoji 👍 ok", "émoji 👍 ok"},
		{"del\x7f nul\x00", "del nul"},
		// Complete sequences of every kind go whole.
		{"a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"a\x1b^private\x1b\\b", "ab"},
		{"a\x1bXsos\x1b\\b", "ab"},
		{"a\u0090dcs\u009cb", "ab"},
		{"a\u009dosc\u0007b", "ab"},
		{"a\x1b(Bb\x1b7c\x1bcd", "abcd"},
		{"a\x1b[?25lb\x1b[2 qc", "abc"},
		// A sequence with no end loses only its introducer.
		{"a\x1b", "a"},
		{"a\x1b[", "a"},
		{"a\x1b[31", "a31"},
		{"a\x1b[31\nb", "a31\nb"},
		{"a\x1b(", "a("},
		{"a\x1b\x01b", "ab"},
		{"a\x1bé", "aé"},
		// A string cut short by another escape, C1 control, CAN or SUB is not ended.
		{"\x1b]0;a\x1b[31mred", "0;ared"},
		{"\x1bPa\x18b", "ab"},
		{"\x1bPa\u0085b", "ab"},
		// BEL ends OSC only.
		{"\x1bPx\x07y", "xy"},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Line("a\nb\t c"); got != "a b c" {
		t.Errorf("Line = %q", got)
	}
	if got := Truncate("héllo world", 6); got != "héllo…" {
		t.Errorf("Truncate = %q", got)
	}
}

// TestSanitizeKeepsTextAfterAnOpenString is the regression: ansi.Strip let an
// escape string with no terminator swallow the rest of the text, and with it the
// notice mcpsh appends to what a server said.
func TestSanitizeKeepsTextAfterAnOpenString(t *testing.T) {
	const notice = "; may or may not have run; not retried"
	for _, intro := range []string{
		"\x1bP", "\x1b]", "\x1b_", "\x1b^", "\x1bX", // DCS, OSC, APC, PM, SOS
		"\u0090", "\u009d", "\u009f", "\u009e", "\u0098", // their C1 forms
		"\x90", "\x9d", "\x9f", "\x9e", "\x98", // the raw bytes, which are not UTF-8
	} {
		got := Sanitize("server says " + intro + notice)
		if !strings.HasSuffix(got, notice) {
			t.Errorf("Sanitize(%q) = %q: the notice is gone", "server says "+intro+notice, got)
		}
		assertSafe(t, got)
	}
}

// assertSafe fails when s holds anything a terminal would act on or that changes
// how text reads: ESC, BEL and the other controls bar newline and tab, DEL, C1,
// bidi controls, or invalid UTF-8.
func assertSafe(t *testing.T, s string) {
	t.Helper()
	if bad := unsafeRune(s); bad != "" {
		t.Errorf("%q holds %s", s, bad)
	}
}

func TestColumns(t *testing.T) {
	up := func(s string) string { return "[" + s + "]" }
	for _, c := range []struct {
		got, want string
	}{
		{Pad("ab", 4), "ab  "},
		{Pad("界", 3), "界 "},
		{Pad("abcdef", 3), "abcdef"},
		{TruncateLeft("/a/long/path.txt", 9), "…path.txt"},
		{TruncateLeft("short", 9), "short"},
		{Row("  ", Cell{Text: "a", Width: 3}, Cell{Text: "toolong", Width: 4, Style: up}, Cell{Text: "7", Width: 3, Right: true}, Cell{Text: "rest"}),
			"a    [too…]    7  rest"},
		{Row("|", Cell{Text: "界界", Width: 3}, Cell{Text: ""}), "界…|"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

func TestSpread(t *testing.T) {
	for _, c := range []struct {
		left, right string
		width, min  int
		want        string
		fits        bool
	}{
		{"ab", "cd", 7, 1, "ab   cd", true},
		{"ab", "cd", 5, 1, "ab cd", true},
		{"ab", "cd", 4, 1, "ab cd", false},
		{"\x1b[1mab\x1b[0m", "é", 5, 2, "\x1b[1mab\x1b[0m  é", true}, // styles and multi-byte runes measured as drawn
		{"ab", "cd", 5, 2, "ab  cd", false},
	} {
		got, fits := Spread(c.left, c.right, c.width, c.min)
		if got != c.want || fits != c.fits {
			t.Errorf("Spread(%q, %q, %d, %d) = %q, %v; want %q, %v", c.left, c.right, c.width, c.min, got, fits, c.want, c.fits)
		}
	}
}

// Safe tells text a terminal acts on from text Sanitize changes only in how
// it measures: the latter may be kept as it came.
func TestSafe(t *testing.T) {
	for s, want := range map[string][2]bool{ // Safe, SafeLine
		"plain":                 {true, true},
		"नमस्ते":                {true, true}, // Sanitize breaks its cluster
		"👍🏽":                    {true, true}, // Sanitize drops the skin tone
		"wipe\u00addisk":        {true, true}, // Sanitize makes the soft hyphen U+FFFD
		"two\nlines\tand a tab": {true, false},
		"line\u2028separator":   {true, false},
		"\x1b[31mred":           {false, false},
		"\u009b31m":             {false, false},
		"a\u202eb":              {false, false},
		"a\rb":                  {false, false},
		"a\x7fb":                {false, false},
		"\xff\xfe":              {false, false},
	} {
		if got := [2]bool{Safe(s), SafeLine(s)}; got != want {
			t.Errorf("Safe, SafeLine(%+q) = %v, want %v", s, got, want)
		}
	}
}
