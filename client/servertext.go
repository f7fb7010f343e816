package client

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// mcpsh writes its own messages around server text (names, JSON, schema
// values). Server text is made safe where it enters such a message, not where
// the message is printed: an escape left open inside it would swallow mcpsh's
// own words after it, and the terminal would act on the rest.

// safe is server text made fit for one line of an mcpsh message.
func safeText(s string) string { return termtext.Line(s) }

// clip is server JSON for a message: safe, on one line, at most n runes.
func clip(raw []byte, n int) string {
	s := bytes.TrimSpace(raw)
	// Sanitising megabytes only to keep n runes would be waste; an escape cut
	// short at this bound loses its introducer in safe, like any other.
	if limit := 4*n + 256; len(s) > limit {
		s = s[:limit]
	}
	return clipText(safeText(string(s)), n)
}

// clipText cuts s to at most n runes, ending with "…" when cut.
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return s[:i] + "…"
}
