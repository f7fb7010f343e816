package sessionlog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

func outcome(tool string, status client.Status, openWorld bool) *client.Outcome {
	return &client.Outcome{
		Time: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC), Server: "demo", Via: "in-process",
		Tool: tool, Title: tool, Status: status, OpenWorld: openWorld,
		Content:           json.RawMessage(`[{"type":"text","text":"private result"}]`),
		StructuredContent: json.RawMessage(`{"big":true}`),
		Args:              map[string]any{"title": "hello", "api_key": "abc", "nested": map[string]any{"password": "x", "n": 1.0}},
		Attempts:          []client.Attempt{{N: 1, Failure: "server_error", WaitMS: 250}, {N: 2}},
	}
}

func TestWriterCreatesPrivateFilesAndWritesEachCall(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "mcpsh", "sessions")
	p := DefaultPath(dir, time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC), 42)
	if filepath.Base(p) != "20261122T060000.000Z-42.jsonl" {
		t.Errorf("name %s", filepath.Base(p))
	}
	w := New(p, ArgsRedact)
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatal("the log exists before any call")
	}
	if err := w.Record(outcome("add_note", client.StatusOK, false)); err != nil {
		t.Fatal(err)
	}
	// Read while the writer is still open: the line is in the file already.
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// The result is kept as a digest and the start of its text, not as
	// the content and structuredContent the server sent.
	if strings.Contains(string(b), `"content"`) || strings.Contains(string(b), `"structuredContent"`) || strings.Contains(string(b), `"big"`) {
		t.Errorf("the log holds result content: %s", b)
	}
	if !strings.Contains(string(b), `"resultSize"`) || !strings.HasSuffix(string(b), "\n") {
		t.Errorf("entry %s", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, want 0700", fi.Mode().Perm())
	}
	w.Record(outcome("weather", client.StatusRefused, true))
	w.Close()
	entries, warnings, err := ReadFile(p)
	if err != nil || len(warnings) > 0 || len(entries) != 2 {
		t.Fatalf("entries %d warnings %v err %v", len(entries), warnings, err)
	}
	e := entries[0]
	if e.Tool != "add_note" || len(e.Attempts) != 2 || e.Attempts[0].Failure != "server_error" || e.Attempts[0].WaitMS != 250 {
		t.Errorf("entry %+v", e.Outcome)
	}
	var args map[string]any
	json.Unmarshal(e.Args, &args)
	want := map[string]any{"title": "hello", "api_key": Redacted, "nested": map[string]any{"password": Redacted, "n": 1.0}}
	if diff := cmp.Diff(want, args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
}

func TestReadSkipsBrokenLines(t *testing.T) {
	good, _ := json.Marshal(Entry{Outcome: client.Outcome{Tool: "a", Status: client.StatusOK}})
	log := string(good) + "\n" + "not json\n" + string(good) + "\n" + `{"tool":"cut`
	entries, warnings, err := Read(strings.NewReader(log))
	if err != nil || len(entries) != 2 {
		t.Fatalf("entries %d err %v", len(entries), err)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "line 2 is not a log entry") || !strings.Contains(warnings[1], "line 4 is cut short") {
		t.Errorf("warnings %q", warnings)
	}
}

func TestLatestAndFilter(t *testing.T) {
	dir := t.TempDir()
	if _, err := Latest(dir); err == nil || !strings.Contains(err.Error(), "no session logs") {
		t.Errorf("empty dir: %v", err)
	}
	for _, ts := range []time.Time{time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)} {
		os.WriteFile(DefaultPath(dir, ts, 1), nil, 0o600)
	}
	if p, _ := Latest(dir); !strings.Contains(p, "20261101") {
		t.Errorf("latest %s", p)
	}
	e := Entry{Outcome: client.Outcome{Tool: "delete_note", Status: client.StatusRefused, OpenWorld: true}}
	for _, tt := range []struct {
		f    Filter
		want bool
	}{
		{Filter{}, true}, {Filter{OpenWorld: true}, true}, {Filter{Tool: "delete_*"}, true}, {Filter{Tool: "add_*"}, false},
		{Filter{Status: "refused"}, true}, {Filter{Status: "ok"}, false},
	} {
		if got := tt.f.Match(e); got != tt.want {
			t.Errorf("%+v: %v", tt.f, got)
		}
	}
	if ValidStatus("okay") == nil || ValidTool("[") == nil || ValidStatus("tool_error") != nil {
		t.Error("validation")
	}
}

func TestSessionsDir(t *testing.T) {
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	if d, _ := SessionsDir(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})); d != "/s/mcpsh/sessions" {
		t.Error(d)
	}
	if d, _ := SessionsDir(env(map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"})); d != "/h/.local/state/mcpsh/sessions" {
		t.Error(d)
	}
	if _, err := SessionsDir(env(nil)); err == nil {
		t.Error("no HOME: want an error")
	}
}

// BenchmarkRecord measures what recording a call costs, now that syncs are
// grouped (SyncEvery); BenchmarkRecordSyncEach pays a sync per call, as the
// log did before, for comparison:
//
//	go test ./internal/sessionlog -run '^$' -bench Record
func BenchmarkRecord(b *testing.B) {
	w := New(filepath.Join(b.TempDir(), "bench.jsonl"), ArgsRedact)
	defer w.Close()
	o := outcome("add_note", client.StatusOK, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Record(o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecordSyncEach(b *testing.B) {
	w := New(filepath.Join(b.TempDir(), "bench.jsonl"), ArgsRedact)
	defer w.Close()
	o := outcome("add_note", client.StatusOK, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Record(o); err != nil {
			b.Fatal(err)
		}
		if err := w.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

// Logs written before policy.ByCaller named a call approved in advance
// "--yes"; they still read as approved by the caller.
func TestOldApprovedInAdvanceReadsAsTheCaller(t *testing.T) {
	entries, _, err := Read(strings.NewReader(`{"tool":"rm","status":"ok","approvedBy":"--yes"}` + "\n" +
		`{"tool":"rm","status":"ok","approvedBy":"caller"}` + "\n"))
	if err != nil || len(entries) != 2 {
		t.Fatalf("entries %d, err %v", len(entries), err)
	}
	for i, e := range entries {
		if e.ApprovedBy != policy.ByCaller {
			t.Errorf("entry %d: approvedBy %q, want %q", i, e.ApprovedBy, policy.ByCaller)
		}
	}
}
