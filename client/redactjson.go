package client

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
	"github.com/mcpsh/mcpsh/internal/redact"
)

// RedactJSON takes the secrets the target knows of (Redact's known values:
// its configured secrets and header values, the secret parts of its URL,
// and every credential its sessions got) out of the strings of a JSON
// text, replacing each with the redaction marker, and says whether it
// changed anything. A text without them comes back as it was, the same
// slice: a proxy passes every result it forwards through here, so a server
// cannot hand mcpsh's own token to the agent by echoing it.
//
// Only known values are taken out, not text that merely looks like a
// credential (as Redact also does): the result is the server's content,
// and a tool that returns an example key must keep it. Strings are read
// with their escapes, so a value spelled with \u escapes is found too. raw
// must be valid JSON (as every answer the tap keeps is).
func (t Target) RedactJSON(raw json.RawMessage) (json.RawMessage, bool) {
	secrets := t.redactableSecrets()
	if len(secrets) == 0 || len(raw) == 0 {
		return raw, false
	}
	if bytes.IndexByte(raw, '\\') < 0 && !containsAny(raw, secrets) {
		return raw, false
	}
	var out []byte
	last := 0
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		end := jsonscan.SkipString(raw, i)
		lit := raw[i:end]
		if fixed, ok := redactString(lit, secrets); ok {
			out = append(out, raw[last:i]...)
			out = append(out, fixed...)
			last = end
		}
		i = end - 1
	}
	if out == nil {
		return raw, false
	}
	return append(out, raw[last:]...), true
}

// redactableSecrets are the values Redact replaces by value, long enough to be
// looked for (redact.Known's rule).
func (t Target) redactableSecrets() []string {
	all := t.knownSecrets()
	out := all[:0]
	for _, v := range all {
		if len(v) >= 6 && !strings.Contains(redact.Marker, v) {
			out = append(out, v)
		}
	}
	return out
}

func containsAny(b []byte, vals []string) bool {
	for _, v := range vals {
		if bytes.Contains(b, []byte(v)) {
			return true
		}
	}
	return false
}

// redactString returns the JSON string literal lit with the secrets taken
// out of its value, and true, when it held one.
func redactString(lit []byte, secrets []string) ([]byte, bool) {
	if bytes.IndexByte(lit, '\\') < 0 && !containsAny(lit, secrets) {
		return nil, false
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return nil, false
	}
	r := redact.Known(s, secrets)
	if r == s {
		return nil, false
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(r)
	return bytes.TrimRight(b.Bytes(), "\n"), true
}
