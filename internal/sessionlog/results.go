package sessionlog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/internal/redact"
)

// ResultsMode is how much of a call's result the log keeps.
type ResultsMode string

const (
	ResultsNone   ResultsMode = "none"   // nothing of it
	ResultsDigest ResultsMode = "digest" // its size, a digest and the start of its text (the default)
	ResultsFull   ResultsMode = "full"   // the digest, and the result itself up to FullCap
)

// ParseResultsMode reads a results mode by name.
func ParseResultsMode(s string) (ResultsMode, error) {
	switch m := ResultsMode(s); m {
	case ResultsNone, ResultsDigest, ResultsFull:
		return m, nil
	}
	return "", fmt.Errorf("%q: want none, digest or full", s)
}

// PreviewRunes bounds the start of a result's text that a digest keeps.
const PreviewRunes = 300

// FullCap bounds the result a full entry keeps; a larger one keeps its
// digest and says how large it was.
const FullCap = 64 << 10

// Result is what the log keeps of a call's result. Everything in it is
// redacted as arguments are (secret-looking keys and secrets inside
// strings), the digest too: it is the digest of what the log would show,
// so a replay compares like with like and a digest of a short secret
// cannot be guessed back.
type Result struct {
	// Size is the length in bytes of the canonical JSON that was digested.
	Size int `json:"size"`
	// Digest is "sha256:" and the hex SHA-256 of the result's canonical JSON
	// (sorted keys, no spaces, numbers as the server wrote them): an object
	// with the content array and structuredContent, those the server sent.
	Digest string `json:"digest"`
	// Text is the start of the result's text blocks, joined by newlines;
	// TextCut says there was more.
	Text    string `json:"text,omitempty"`
	TextCut bool   `json:"textCut,omitempty"`
	// Full is the canonical JSON itself, in full mode, when it fits FullCap;
	// else FullOmitted is its size.
	Full        json.RawMessage `json:"full,omitempty"`
	FullOmitted int             `json:"fullOmitted,omitempty"`
}

// KeepResult is what mode keeps of a result: nil for none, or when the call
// has no result (it failed, or was refused).
func KeepResult(mode ResultsMode, content, structured json.RawMessage) *Result {
	if mode == ResultsNone || (len(content) == 0 && len(structured) == 0) {
		return nil
	}
	doc := map[string]any{}
	if v, ok := decodeNumbers(content); ok {
		doc["content"] = redactValue(v)
	}
	if v, ok := decodeNumbers(structured); ok {
		doc["structuredContent"] = redactValue(v)
	}
	canon, err := json.Marshal(doc)
	if err != nil {
		return nil
	}
	sum := sha256.Sum256(canon)
	r := &Result{Size: len(canon), Digest: "sha256:" + hex.EncodeToString(sum[:])}
	r.Text, r.TextCut = preview(doc["content"])
	if mode == ResultsFull {
		if len(canon) <= FullCap {
			r.Full = canon
		} else {
			r.FullOmitted = len(canon)
		}
	}
	return r
}

// DigestOf is the digest a log entry would keep of this result, for a
// replay to compare with; "" when there is no result.
func DigestOf(content, structured json.RawMessage) string {
	if r := KeepResult(ResultsDigest, content, structured); r != nil {
		return r.Digest
	}
	return ""
}

func decodeNumbers(raw json.RawMessage) (any, bool) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		// Not JSON: keep it as the text it is, so it is still digested.
		return redact.Text(string(raw)), true
	}
	return v, true
}

// preview is the start of the text blocks of a (redacted) content array.
func preview(content any) (string, bool) {
	blocks, _ := content.([]any)
	var texts []string
	n := 0
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		if t, _ := m["type"].(string); t != "text" {
			continue
		}
		s, _ := m["text"].(string)
		texts = append(texts, s)
		if n += len(s); n > PreviewRunes*utf8.UTFMax {
			break
		}
	}
	text := strings.Join(texts, "\n")
	if utf8.RuneCountInString(text) <= PreviewRunes {
		return text, false
	}
	r := []rune(text)
	return string(r[:PreviewRunes]), true
}
