package overlays

import (
	"encoding/json"
	"testing"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
)

// TestLogPaneArgsAsTheLogKeepsThem: an opened call shows its arguments as
// the session log writes them, redaction included.
func TestLogPaneArgsAsTheLogKeepsThem(t *testing.T) {
	args := map[string]any{
		"password": "hunter2", "note": "token ghp_0123456789abcdefghijklmnopqrstuvwxyz in text",
		"nested": map[string]any{"Authorization": "Bearer abc.def.ghi", "list": []any{"sk-live-0123456789abcdefghij", 3}},
	}
	path := t.TempDir() + "/s.jsonl"
	w := sessionlog.New(path, sessionlog.ArgsRedact)
	if err := w.Open(); err != nil {
		t.Fatal(err)
	}
	o := uitest.OKOutcome()
	o.Args = args
	if err := w.Record(o); err != nil {
		t.Fatal(err)
	}
	entries, _, err := sessionlog.ReadFile(path)
	if err != nil || len(entries) != 1 {
		t.Fatalf("%v, %d entries", err, len(entries))
	}
	var logged, shown any
	if err := json.Unmarshal(entries[0].Args, &logged); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(loggedArgsJSON(args, sessionlog.ArgsRedact)), &shown); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(logged) // maps marshal in key order: comparable
	b, _ := json.Marshal(shown)
	if string(a) != string(b) {
		t.Errorf("the log keeps %s, the pane shows %s", a, b)
	}
}
