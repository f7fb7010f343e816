package redact

import (
	"slices"
	"testing"
)

func TestCredentials(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Bearer tok-s3cret-value-123", []string{"tok-s3cret-value-123"}},
		{"  bearer   tok-s3cret  ", []string{"tok-s3cret"}},
		{"token ghp_abcdef123456", []string{"ghp_abcdef123456"}},
		// "alice:pa55-w0rd!" in base64, padded and not.
		{"Basic YWxpY2U6cGE1NS13MHJkIQ==", []string{"YWxpY2U6cGE1NS13MHJkIQ==", "alice:pa55-w0rd!", "pa55-w0rd!"}},
		{"Basic YWxpY2U6cGE1NS13MHJkIQ", []string{"YWxpY2U6cGE1NS13MHJkIQ", "alice:pa55-w0rd!", "pa55-w0rd!"}},
		{"Basic not-base64!", []string{"not-base64!"}},
		{"sk-live-0123456789", nil},
		{"application/json, text/event-stream", nil},
		{"Digest username=\"a\", response=\"b\"", nil},
		{"Bearer", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Credentials(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Credentials(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
