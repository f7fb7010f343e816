package redact

import "testing"

func TestKnown(t *testing.T) {
	tests := []struct {
		name, in string
		secrets  []string
		want     string
	}{
		{"every occurrence", "a s3cr3t-val b s3cr3t-val", []string{"s3cr3t-val"}, "a [redacted] b [redacted]"},
		{"longest first", "Bearer abcdef123 and abcdef123", []string{"abcdef123", "Bearer abcdef123"}, "[redacted] and [redacted]"},
		{"short ones ignored", "dev mode 1234", []string{"dev", "1234", "", "12345"}, "dev mode 1234"},
		{"six bytes is enough", "pin 123456", []string{"123456"}, "pin [redacted]"},
		{"parts of the marker ignored", "redacted data", []string{"redacted"}, "redacted data"},
		{"none", "text", nil, "text"},
		{"duplicates", "xxxxxx", []string{"xxxxxx", "xxxxxx"}, "[redacted]"},
	}
	for _, tt := range tests {
		if got := Known(tt.in, tt.secrets); got != tt.want {
			t.Errorf("%s: Known(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}
