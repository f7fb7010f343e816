package client

import (
	"encoding/json"
	"strings"
	"testing"
)

// A header's credential is a known secret alone too: a server that echoes
// the token without "Bearer " (or a Basic blob, or the password inside it)
// gets it taken out of what mcpsh passes on and prints.
func TestAHeadersCredentialIsKnownWithoutItsScheme(t *testing.T) {
	t.Parallel()
	tg := Target{Kind: KindHTTP, URL: "https://example.com/mcp", Headers: map[string]string{
		"Authorization":       "Bearer tok-s3cret-value-123",
		"Proxy-Authorization": "Basic YWxpY2U6cGE1NS13MHJkIQ==", // alice:pa55-w0rd!
	}}
	for _, echoed := range []string{"tok-s3cret-value-123", "YWxpY2U6cGE1NS13MHJkIQ==", "alice:pa55-w0rd!", "pa55-w0rd!"} {
		raw, _ := json.Marshal(map[string]any{"content": []any{map[string]string{"type": "text", "text": "your token is " + echoed}}})
		out, changed := tg.RedactJSON(raw)
		if !changed || strings.Contains(string(out), echoed) || !json.Valid(out) {
			t.Errorf("RedactJSON passes %q on: %s", echoed, out)
		}
		if s := tg.Redact("your token is " + echoed); strings.Contains(s, echoed) {
			t.Errorf("Redact passes %q on: %s", echoed, s)
		}
	}
}
