package termtext

import "testing"

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n\tindented", "plain text\n\tindented"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b]0;pwned title\x07after", "after"},
		{"\x1b]8;;https://evil.example\x07link\x1b]8;;\x07", "link"},
		{"over\rwrite", "overwrite"},
		{"bell\x07 back\x08space", "bell backspace"},
		{"c1 \u009b31m csi", "c1 31m csi"},
		{"bidi \u202egnp.exe", "bidi gnp.exe"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"émoji 👍 ok", "émoji 👍 ok"},
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
