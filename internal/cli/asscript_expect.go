package cli

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// resultExpects are the lines, after a call's status, that check its result
// as strongly as the log allows (--log-results):
//
//   - a result kept in full: `expect json .KEY == VALUE` for each top-level
//     key of structuredContent, and `expect text "…"` with all of its text.
//     These read as what the server said, and each fails on its own part: a
//     changed value names its key, and `mcpsh test --update` rewrites that
//     line alone. A key the server adds later is not checked (an output
//     schema allows more keys unless it says otherwise), so a replay fails
//     on a changed answer, not on a richer one. What they cannot cover (a
//     block that is not text, a value the log redacted) is covered by the
//     digest as well, which is of the redacted result on both sides.
//   - a digest: `expect digest sha256:…`, with the start of the text as a
//     comment when the log kept it, so a reader sees what it stands for.
//   - nothing kept: no line; the status alone is expected.
func resultExpects(r *sessionlog.Result) []string {
	if r == nil || r.Digest == "" {
		return nil
	}
	if len(r.Full) > 0 {
		if lines, ok := fullExpects(r); ok {
			return lines
		}
	}
	var lines []string
	if r.Text != "" {
		more := ""
		if r.TextCut {
			more = "…"
		}
		lines = append(lines, "  # result: "+commentText(r.Text)+more)
	}
	if r.FullOmitted > 0 {
		lines = append(lines, fmt.Sprintf("  # the result (%s) was over the log's cap for a full result: its digest is expected", fmt.Sprintf("%d KiB", (r.FullOmitted+1023)>>10)))
	}
	return append(lines, "  expect digest "+r.Digest)
}

// fullExpects reads a result kept in full; false when it is not the log's
// canonical JSON, or holds nothing to check but its digest.
func fullExpects(r *sessionlog.Result) ([]string, bool) {
	var doc struct {
		Content    []map[string]any `json:"content"`
		Structured any              `json:"structuredContent"`
	}
	dec := json.NewDecoder(strings.NewReader(string(r.Full)))
	dec.UseNumber()
	if dec.Decode(&doc) != nil {
		return nil, false
	}
	var lines []string
	partial := false // something is left for the digest to check
	if obj, ok := doc.Structured.(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if holdsRedacted(obj[k]) {
				partial = true
				continue
			}
			lines = append(lines, "  expect json "+jsonPath{{Key: k}}.String()+" == "+jsonText(obj[k]))
		}
	} else if doc.Structured != nil {
		if holdsRedacted(doc.Structured) {
			partial = true
		} else {
			lines = append(lines, "  expect json . == "+jsonText(doc.Structured))
		}
	}
	var texts []string
	for _, b := range doc.Content {
		if b["type"] != "text" {
			partial = true
			continue
		}
		s, _ := b["text"].(string)
		texts = append(texts, s)
	}
	if text := strings.Join(texts, "\n"); text != "" {
		if piece := longestUnredacted(text); piece != "" {
			lines = append(lines, "  expect text "+jsonText(piece))
		}
		if strings.Contains(text, sessionlog.Redacted) {
			partial = true
		}
	}
	if len(lines) == 0 {
		return nil, false
	}
	if partial {
		lines = append(lines, "  # the digest covers what the lines above do not (blocks that are not text, values the log redacted)",
			"  expect digest "+r.Digest)
	}
	return lines, true
}

// holdsRedacted reports whether the log redacted anything in v: the server
// sent something else there, which an expectation cannot name.
func holdsRedacted(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, sessionlog.Redacted)
	case []any:
		return slices.ContainsFunc(x, holdsRedacted)
	case map[string]any:
		for k, val := range x {
			if strings.Contains(k, sessionlog.Redacted) || holdsRedacted(val) {
				return true
			}
		}
	}
	return false
}

// longestUnredacted is the longest stretch of text between the log's
// redaction markers: what `expect text` (which looks for a part) can still
// check of a text with a secret in it.
func longestUnredacted(text string) string {
	best := ""
	for _, piece := range strings.Split(text, sessionlog.Redacted) {
		if len(strings.TrimSpace(piece)) > len(strings.TrimSpace(best)) {
			best = piece
		}
	}
	if strings.TrimSpace(best) == "" {
		return ""
	}
	return best
}
