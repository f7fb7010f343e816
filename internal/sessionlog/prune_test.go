package sessionlog

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fabricate writes a session log of size bytes named for start and pid, last
// written at mtime.
func fabricate(t testing.TB, dir string, start time.Time, pid, size int, mtime time.Time) string {
	t.Helper()
	p := DefaultPath(dir, start, pid)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Repeat("x", size-1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return p
}

func alivePIDs(t *testing.T, pids ...int) {
	old := processAlive
	processAlive = func(pid int) bool { return slices.Contains(pids, pid) }
	t.Cleanup(func() { processAlive = old })
}

func TestPrune(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	dir := t.TempDir()
	alivePIDs(t, 7)
	at := func(d time.Duration) time.Time { return now.Add(-d) }
	var (
		ancient  = fabricate(t, dir, at(90*day), 1, 100, at(90*day))
		old      = fabricate(t, dir, at(40*day), 2, 100, at(40*day))
		longRun  = fabricate(t, dir, at(40*day), 3, 100, at(time.Hour)) // started long ago, written lately
		running  = fabricate(t, dir, at(60*day), 7, 100, at(60*day))    // its process still runs
		lastWeek = fabricate(t, dir, at(7*day), 4, 300, at(7*day))
		recent   = fabricate(t, dir, at(2*day), 5, 300, at(2*day))
		current  = fabricate(t, dir, at(100*day), 6, 100, at(100*day)) // the one being opened
	)
	foreign := filepath.Join(dir, "notes.jsonl")
	os.WriteFile(foreign, []byte("mine\n"), 0o600)
	os.Chtimes(foreign, at(400*day), at(400*day))

	// By age alone: what was last written more than 30 days ago goes, except
	// the running session, the current one and files not named as sessions.
	r := Retention{MaxAge: 30 * day, MaxSize: 1 << 20}
	removed, errs := r.Prune(dir, current, now)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if want := []string{IDOf(ancient), IDOf(old)}; !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, p := range []string{longRun, running, lastWeek, recent, current, foreign} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was pruned", filepath.Base(p))
		}
	}

	// By size: 900 bytes remain (current included); at most 500 keeps the
	// most recently written, whatever their start time.
	r = Retention{MaxAge: 365 * day, MaxSize: 500}
	removed, _ = r.Prune(dir, current, now)
	if want := []string{IDOf(lastWeek), IDOf(recent)}; !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v (oldest written first, until at most 500 bytes)", removed, want)
	}
	for _, p := range []string{longRun, running, current, foreign} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was pruned", filepath.Base(p))
		}
	}

	// A folder that does not exist has nothing to prune.
	if removed, errs := r.Prune(filepath.Join(dir, "none"), "", now); removed != nil || errs != nil {
		t.Errorf("missing folder: %v %v", removed, errs)
	}
}

func TestProcessAlive(t *testing.T) {
	if !processAlive(os.Getpid()) {
		t.Error("this process is not alive")
	}
	if processAlive(0) || processAlive(1<<30) {
		t.Error("a process that cannot exist is alive")
	}
}

func TestRotateOpenWorld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "openworld.jsonl")
	r := Retention{MaxSize: 1000}
	if rotated, err := r.RotateOpenWorld(p); rotated || err != nil {
		t.Errorf("no log: %v %v", rotated, err)
	}
	os.WriteFile(p, []byte(strings.Repeat("a", 100)), 0o600)
	if rotated, _ := r.RotateOpenWorld(p); rotated {
		t.Error("rotated at a tenth of MaxSize exactly")
	}
	os.WriteFile(RotatedPath(p), []byte("older"), 0o600)
	os.WriteFile(p, []byte(strings.Repeat("b", 101)), 0o600)
	if rotated, err := r.RotateOpenWorld(p); !rotated || err != nil {
		t.Fatalf("over a tenth: %v %v", rotated, err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Error("the log is still there")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "openworld.1.jsonl")); string(b) != strings.Repeat("b", 101) {
		t.Errorf("openworld.1.jsonl holds %q", b)
	}
}

// BenchmarkPrune is what a prune costs when the folder holds 10,000
// sessions and none are due: a listing and a stat per file. MaybePrune pays
// it at most every PruneEvery, not at every session start.
//
//	go test ./internal/sessionlog -run '^$' -bench Prune
func BenchmarkPrune(b *testing.B) {
	dir := b.TempDir()
	now := time.Now()
	for i := range 10000 {
		fabricate(b, dir, now.Add(-time.Duration(i)*time.Minute), 1<<30, 100, now.Add(-time.Duration(i)*time.Minute))
	}
	r := DefaultRetention()
	b.ResetTimer()
	for range b.N {
		if removed, errs := r.Prune(dir, "", now); len(removed) > 0 || len(errs) > 0 {
			b.Fatal(removed, errs)
		}
	}
}

// TestMaybePrune checks that pruning runs at most every PruneEvery, so a
// script of many one-call sessions does not stat the folder each time.
func TestMaybePrune(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	alivePIDs(t)
	r := Retention{MaxAge: 24 * time.Hour, MaxSize: 1 << 20}
	if _, _, ran := r.MaybePrune(filepath.Join(dir, "none"), "", now); ran {
		t.Error("pruned a folder that does not exist")
	}
	if _, err := os.Stat(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Error("MaybePrune created the folder")
	}
	fabricate(t, dir, now.Add(-48*time.Hour), 1, 10, now.Add(-48*time.Hour))
	if removed, errs, ran := r.MaybePrune(dir, "", now); !ran || len(errs) > 0 || len(removed) != 1 {
		t.Fatalf("first: ran %v, removed %v, errs %v", ran, removed, errs)
	}
	second := fabricate(t, dir, now.Add(-48*time.Hour), 2, 10, now.Add(-48*time.Hour))
	if _, _, ran := r.MaybePrune(dir, "", now.Add(59*time.Minute)); ran {
		t.Error("pruned again within the hour")
	}
	if _, err := os.Stat(second); err != nil {
		t.Error("the second old session went within the hour")
	}
	if removed, _, ran := r.MaybePrune(dir, "", now.Add(61*time.Minute)); !ran || len(removed) != 1 {
		t.Errorf("after the hour: ran %v, removed %v", ran, removed)
	}
	if ss, _ := Sessions(dir); len(ss) != 0 {
		t.Errorf("sessions left %v (the stamp is not a session)", ss)
	}
	// A short MaxAge prunes more often: every half of it.
	short := Retention{MaxAge: 20 * time.Minute}
	if _, _, ran := short.MaybePrune(dir, "", now.Add(72*time.Minute)); !ran {
		t.Error("MaxAge 20m: not pruned after 11 minutes")
	}
}

func TestSessionName(t *testing.T) {
	for name, want := range map[string]int{
		"20261122T061417.123Z-4242.jsonl":       4242,
		"20261122T061417.123Z-1.jsonl":          1,
		"20261122T061417.123Z-4294967295.jsonl": 4294967295,
	} {
		if _, pid, ok := sessionName(name); !ok || pid != want {
			t.Errorf("%s: %d %v", name, pid, ok)
		}
	}
	for _, name := range []string{"openworld.jsonl", ".pruned", "20261122T061417.123Z-.jsonl", "20261122T061417.123Z-42a.jsonl",
		"20261122T061417.123Z-+42.jsonl", "x20261122T061417.123Z-42.jsonl", "20261122T061417.123Z-42.jsonl.bak",
		"20261122T061417.123Z-42.JSONL", "20261122T061417.123Z-12345678901.jsonl", "20261122X061417.123Z-42.jsonl", "20261122T061417,123Z-42.jsonl"} {
		if _, _, ok := sessionName(name); ok {
			t.Errorf("%s taken for a session log", name)
		}
	}
}
