package sessionlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
)

// TestAppendAfterTornLine checks that a log whose writer was killed mid-line
// (the file does not end in a newline) gets the next entry on a line of its
// own: glued to the torn line, it would be lost with it.
func TestAppendAfterTornLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	w := New(p, ArgsRedact)
	if err := w.Record(outcome("first", client.StatusOK, false)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"tool":"torn","sta`)
	f.Close()

	w = New(p, ArgsRedact)
	if err := w.Record(outcome("after", client.StatusOK, false)); err != nil {
		t.Fatal(err)
	}
	w.Record(outcome("last", client.StatusOK, false))
	w.Close()
	entries, warnings, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, e := range entries {
		tools = append(tools, e.Tool)
	}
	if strings.Join(tools, ",") != "first,after,last" {
		t.Errorf("tools read back: %v", tools)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "line 2 is cut short") {
		t.Errorf("warnings %q, want one about line 2 being cut short", warnings)
	}
}

// TestAppendToWholeLog checks that a log ending in a newline, or empty, gets no
// blank line.
func TestAppendToWholeLog(t *testing.T) {
	for _, existing := range []string{"", `{"tool":"x"}` + "\n"} {
		p := filepath.Join(t.TempDir(), "s.jsonl")
		os.WriteFile(p, []byte(existing), 0o600)
		w := New(p, ArgsNone)
		w.Record(outcome("a", client.StatusOK, false))
		w.Close()
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), "\n\n") || strings.HasPrefix(string(b), "\n") {
			t.Errorf("after %q the log is %q", existing, b)
		}
	}
}

// TestRecordRedactsMessages checks the defence in depth on what the client
// hands over already redacted: how the server is reached and why a call failed
// are shown in full wherever the log goes, so a token the client missed must
// not reach the file. The outcome itself is left as it was.
func TestRecordRedactsMessages(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	w := New(p, ArgsFull)
	o := outcome("a", client.StatusFailed, false)
	o.Via = "stdio: server --token ghp_" + strings.Repeat("x1", 18)
	o.Error = `Post "https://h/mcp?api_key=abc123": connection refused`
	o.Attempts = []client.Attempt{{N: 1, Failure: "transport", Error: "401 for Bearer abcdef123456"}}
	if err := w.Record(o); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b, _ := os.ReadFile(p)
	for _, secret := range []string{"ghp_", "abc123", "abcdef123456"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the log holds %q: %s", secret, b)
		}
	}
	for _, kept := range []string{"stdio: server --token [redacted]", `api_key=[redacted]\": connection refused`, "401 for Bearer [redacted]"} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("the log lacks %q: %s", kept, b)
		}
	}
	if !strings.Contains(o.Via, "ghp_") || !strings.Contains(o.Attempts[0].Error, "abcdef123456") {
		t.Errorf("Record changed the caller's outcome: %+v", o)
	}
}
