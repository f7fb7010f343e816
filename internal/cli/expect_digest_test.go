package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// digestOutcome is a call that ended ok with text, as the client hands it
// over: the raw content (what a digest is of) and the parsed result.
func digestOutcome(text string) *client.Outcome {
	content, _ := json.Marshal([]map[string]string{{"type": "text", "text": text}})
	return &client.Outcome{Status: client.StatusOK, Content: content,
		Result: &client.Result{Content: []client.Block{{Type: "text", Text: text}}}}
}

func TestExpectDigest(t *testing.T) {
	t.Parallel()
	note1, note2 := digestOutcome("#1 Welcome to mcpsh"), digestOutcome("#2 Shopping list")
	d1 := sessionlog.DigestOf(note1.Content, nil)
	e := mustExpect(t, "digest "+d1)
	if e.String() != "digest "+d1 {
		t.Errorf("reads back as %q", e.String())
	}
	if r := e.check(note1); !r.OK || r.Got != d1 {
		t.Errorf("the same result: %+v", r)
	}
	r := e.check(note2)
	if r.OK {
		t.Fatal("another result passed")
	}
	d2 := sessionlog.DigestOf(note2.Content, nil)
	want := `expected digest ` + d1[:19] + `…, got ` + d2[:19] + `… (text: "#2 Shopping list")`
	if msg := e.failure(r, note2); msg != want {
		t.Errorf("failure\n got %s\nwant %s", msg, want)
	}
	// The same digest whatever the server's key order and spacing: it is of
	// the canonical JSON, as the log keeps it.
	spaced := *note1
	spaced.Content = json.RawMessage(`[ {"text": "#1 Welcome to mcpsh", "type": "text"} ]`)
	if !e.check(&spaced).OK {
		t.Error("key order or spacing changed the digest")
	}
	refused := &client.Outcome{Status: client.StatusRefused}
	if r := e.check(refused); r.OK || !strings.Contains(e.failure(r, refused), "got nothing: the call has no result: it ended refused") {
		t.Errorf("no result: %+v %s", r, e.failure(r, refused))
	}
}

func TestParseExpectDigestMistakes(t *testing.T) {
	t.Parallel()
	hex := strings.Repeat("ab", 32)
	for line, want := range map[string]string{
		"digest":                                `digest "": want sha256: and 64 hex digits`,
		"digest " + hex:                         `want sha256: and 64 hex digits`,
		"digest sha256:" + hex[:63]:             "(lower case)",
		"digest sha256:" + hex + "0":            "(lower case)",
		"digest sha256:" + strings.ToUpper(hex): "(lower case)",
		"digest md5:" + hex:                     `digest "md5:abababababababab…"`,
	} {
		if _, err := parseExpect(line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
}
