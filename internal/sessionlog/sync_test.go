package sessionlog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
)

// fakeClock records the syncs a Writer makes and holds its timer, so a test
// fires it by hand: the policy is tested, not the timing.
type fakeClock struct {
	syncs   map[string]int // file name → syncs
	armed   []func()
	stopped int
	fail    error
}

func (c *fakeClock) install(w *Writer) {
	w.schedule = func(d time.Duration, f func()) func() bool {
		if d != SyncEvery {
			panic("unexpected interval")
		}
		c.armed = append(c.armed, f)
		return func() bool { c.stopped++; return true }
	}
	w.syncFile = func(f *os.File) error {
		if c.fail != nil {
			return c.fail
		}
		c.syncs[filepath.Base(f.Name())]++
		return nil
	}
}

// fire runs the timer armed last, as time.AfterFunc would.
func (c *fakeClock) fire() { c.armed[len(c.armed)-1]() }

func TestSyncsAreGrouped(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	w := New(p, ArgsRedact)
	c := &fakeClock{syncs: map[string]int{}}
	c.install(w)

	for _, tool := range []string{"a", "b", "c"} {
		if err := w.Record(outcome(tool, client.StatusOK, false)); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(p); strings.Count(string(b), "\n") != 3 {
		t.Fatalf("each line must be written before Record returns, file holds:\n%s", b)
	}
	if c.syncs["s.jsonl"] != 0 || len(c.armed) != 1 {
		t.Fatalf("after three records: %d syncs, %d timers; want 0 and 1 (one timer for the group)", c.syncs["s.jsonl"], len(c.armed))
	}
	c.fire()
	if c.syncs["s.jsonl"] != 1 {
		t.Fatalf("the timer did not sync: %d", c.syncs["s.jsonl"])
	}
	// Before a destructive call: Sync syncs at once, and only what is new.
	w.Record(outcome("d", client.StatusOK, false))
	if len(c.armed) != 2 {
		t.Fatalf("a record after the sync armed %d timers in all, want 2", len(c.armed))
	}
	if err := w.Sync(); err != nil || c.syncs["s.jsonl"] != 2 {
		t.Fatalf("Sync: %v, %d syncs, want 2", err, c.syncs["s.jsonl"])
	}
	c.fire() // the timer finds nothing new
	w.Sync()
	if c.syncs["s.jsonl"] != 2 {
		t.Errorf("syncs with nothing written: %d, want 2", c.syncs["s.jsonl"])
	}
	// Close syncs what is left, and stops the timer.
	w.Record(outcome("e", client.StatusOK, false))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if c.syncs["s.jsonl"] != 3 || c.stopped != 1 {
		t.Errorf("Close: %d syncs (want 3), %d timers stopped (want 1)", c.syncs["s.jsonl"], c.stopped)
	}
	c.fire() // a timer that fires late finds the file closed
	if c.syncs["s.jsonl"] != 3 {
		t.Errorf("a late timer synced a closed file")
	}
}

// TestTimerSyncErrorIsReported checks that a sync that fails on the timer,
// with no caller to hear it, is reported by the next Record.
func TestTimerSyncErrorIsReported(t *testing.T) {
	w := New(filepath.Join(t.TempDir(), "s.jsonl"), ArgsRedact)
	c := &fakeClock{syncs: map[string]int{}}
	c.install(w)
	w.Record(outcome("a", client.StatusOK, false))
	c.fail = errors.New("disk on fire")
	c.fire()
	c.fail = nil
	err := w.Record(outcome("b", client.StatusOK, false))
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("Record after a failed sync: %v", err)
	}
	if err := w.Record(outcome("c", client.StatusOK, false)); err != nil {
		t.Errorf("the error is reported once: %v", err)
	}
	// The lines the failed sync left are still to be synced.
	if err := w.Sync(); err != nil || c.syncs["s.jsonl"] != 1 {
		t.Errorf("Sync: %v, %d syncs", err, c.syncs["s.jsonl"])
	}
	w.Close()
}

// TestOpenWorldLog checks that open-world calls, and only they, also go to
// the open-world log, with the session's ID, and that Sync and Close cover it.
func TestOpenWorldLog(t *testing.T) {
	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions")
	p := DefaultPath(sessions, time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC), 42)
	w := New(p, ArgsRedact)
	ow := New(OpenWorldPath(sessions), ArgsRedact)
	w.AlsoOpenWorld(ow, IDOf(p))
	c := &fakeClock{syncs: map[string]int{}}
	c.install(w)
	c.install(ow)
	w.Record(outcome("list_notes", client.StatusOK, false))
	w.Record(outcome("weather", client.StatusOK, true))
	w.Record(outcome("send", client.StatusRefused, true))
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	if c.syncs["openworld.jsonl"] != 1 || c.syncs[filepath.Base(p)] != 1 {
		t.Errorf("syncs %v, want one of each file", c.syncs)
	}
	w.Record(outcome("weather", client.StatusOK, true))
	w.Close()
	if c.syncs["openworld.jsonl"] != 2 {
		t.Errorf("Close did not sync the open-world log: %v", c.syncs)
	}
	if OpenWorldPath(sessions) != filepath.Join(dir, "openworld.jsonl") {
		t.Errorf("open-world log at %s", OpenWorldPath(sessions))
	}
	entries, warnings, err := ReadFile(OpenWorldPath(sessions))
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Tool+"@"+e.Session)
		if string(e.Args) == "" || strings.Contains(string(e.Args), `"abc"`) {
			t.Errorf("arguments not kept as the mode says: %s", e.Args)
		}
	}
	id := "20261122T060000.000Z-42"
	if want := "weather@" + id + ",send@" + id + ",weather@" + id; strings.Join(got, ",") != want {
		t.Errorf("open-world log: %v, want %s", got, want)
	}
	// The session's own file does not repeat its ID on every line.
	b, _ := os.ReadFile(p)
	if strings.Contains(string(b), `"session"`) || strings.Count(string(b), "\n") != 4 {
		t.Errorf("session file:\n%s", b)
	}
}
