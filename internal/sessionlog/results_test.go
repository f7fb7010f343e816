package sessionlog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
)

func TestKeepResult(t *testing.T) {
	text := func(s string) json.RawMessage {
		b, _ := json.Marshal([]map[string]string{{"type": "text", "text": s}})
		return b
	}
	if r := KeepResult(ResultsNone, text("x"), nil); r != nil {
		t.Errorf("none keeps %+v", r)
	}
	if r := KeepResult(ResultsFull, nil, nil); r != nil {
		t.Errorf("a call without a result keeps %+v", r)
	}

	a := KeepResult(ResultsDigest, json.RawMessage(`[{"type":"text","text":"note 1"}]`), json.RawMessage(`{"id":1,"tags":["a"]}`))
	b := KeepResult(ResultsDigest, json.RawMessage(` [ {"text":"note 1", "type":"text"} ]`), json.RawMessage(`{"tags":["a"], "id":1}`))
	if a == nil || a.Digest != b.Digest || a.Size != b.Size || !strings.HasPrefix(a.Digest, "sha256:") || len(a.Digest) != len("sha256:")+64 {
		t.Fatalf("the same result written otherwise digests otherwise: %+v, %+v", a, b)
	}
	if a.Text != "note 1" || a.TextCut || a.Full != nil {
		t.Errorf("digest keeps %+v", a)
	}
	for _, other := range []*Result{
		KeepResult(ResultsDigest, json.RawMessage(`[{"type":"text","text":"note 2"}]`), json.RawMessage(`{"id":1,"tags":["a"]}`)),
		KeepResult(ResultsDigest, json.RawMessage(`[{"type":"text","text":"note 1"}]`), json.RawMessage(`{"id":1.0,"tags":["a"]}`)),
		KeepResult(ResultsDigest, json.RawMessage(`[{"type":"text","text":"note 1"}]`), nil),
	} {
		if other.Digest == a.Digest {
			t.Errorf("a different result digests the same: %+v", other)
		}
	}

	// Secrets are kept out of the text and the digest: two results that
	// differ only in a secret digest alike.
	s1 := KeepResult(ResultsFull, text("token=ghp_"+strings.Repeat("a1", 18)+" issued"), json.RawMessage(`{"password":"hunter2"}`))
	s2 := KeepResult(ResultsFull, text("token=ghp_"+strings.Repeat("b2", 18)+" issued"), json.RawMessage(`{"password":"swordfish"}`))
	if s1.Digest != s2.Digest || strings.Contains(s1.Text, "ghp_") || strings.Contains(string(s1.Full), "hunter2") || strings.Contains(string(s1.Full), "ghp_") {
		t.Errorf("secrets kept: %+v / %+v", s1, s2)
	}

	long := KeepResult(ResultsFull, text(strings.Repeat("é", PreviewRunes+1)), nil)
	if !long.TextCut || len([]rune(long.Text)) != PreviewRunes || long.Full == nil {
		t.Errorf("a long text: cut %v, %d runes, full %d bytes", long.TextCut, len([]rune(long.Text)), len(long.Full))
	}
	huge := KeepResult(ResultsFull, text(strings.Repeat("x", FullCap)), nil)
	if huge.Full != nil || huge.FullOmitted != huge.Size || huge.Size <= FullCap {
		t.Errorf("a result over the cap: full %d bytes, omitted %d, size %d", len(huge.Full), huge.FullOmitted, huge.Size)
	}
	if got := DigestOf(json.RawMessage(`[{"text":"note 1","type":"text"}]`), json.RawMessage(`{"id":1,"tags":["a"]}`)); got != a.Digest {
		t.Errorf("DigestOf = %s, the log kept %s", got, a.Digest)
	}
	if _, err := ParseResultsMode("all"); err == nil || !strings.Contains(err.Error(), "want none, digest or full") {
		t.Errorf("ParseResultsMode(all): %v", err)
	}
}

// The entry keeps the digest by default, and never the content itself.
func TestRecordKeepsTheResultsDigest(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	w := New(p, ArgsRedact)
	ow := New(filepath.Join(t.TempDir(), "openworld.jsonl"), ArgsRedact)
	w.AlsoOpenWorld(ow, "s")
	o := outcome("get_note", client.StatusOK, true)
	o.Content = json.RawMessage(`[{"type":"text","text":"the note"}]`)
	if err := w.Record(o); err != nil {
		t.Fatal(err)
	}
	w.KeepResults(ResultsNone)
	if err := w.Record(o); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, path := range []string{p, ow.Path()} {
		b, _ := os.ReadFile(path)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines", path, len(lines))
		}
		var e1, e2 Entry
		json.Unmarshal([]byte(lines[0]), &e1)
		json.Unmarshal([]byte(lines[1]), &e2)
		if e1.Result == nil || e1.Result.Digest != DigestOf(o.Content, o.StructuredContent) || e1.Result.Text != "the note" || e1.Content != nil {
			t.Errorf("%s: first entry keeps %+v, content %s", path, e1.Result, e1.Content)
		}
		if e2.Result != nil {
			t.Errorf("%s: none mode keeps %+v", path, e2.Result)
		}
	}
}

// A log that keeps no arguments keeps no result text by default: the text
// often quotes them.
func TestNoArgumentsNoResultText(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	w := New(p, ArgsNone)
	o := outcome("add_note", client.StatusOK, false)
	o.Content = json.RawMessage(`[{"type":"text","text":"Added note: secret plan"}]`)
	if err := w.Record(o); err != nil {
		t.Fatal(err)
	}
	w.KeepResults(ResultsFull)
	if err := w.Record(o); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b, _ := os.ReadFile(p)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if strings.Contains(lines[0], "secret plan") || !strings.Contains(lines[0], `"digest":"sha256:`) {
		t.Errorf("digest with --log-args none: %s", lines[0])
	}
	if !strings.Contains(lines[1], "secret plan") {
		t.Errorf("full, asked for: %s", lines[1])
	}
}
