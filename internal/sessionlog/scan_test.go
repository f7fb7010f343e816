package sessionlog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
)

// writeSession writes a session log holding one entry per tool, the calls a
// minute apart from start, and sets its mtime to the last call's time.
func writeSession(t testing.TB, dir string, start time.Time, pid int, server string, tools ...string) Session {
	t.Helper()
	p := DefaultPath(dir, start, pid)
	os.MkdirAll(dir, 0o700)
	var b strings.Builder
	last := start
	for i, tool := range tools {
		last = start.Add(time.Duration(i) * time.Minute)
		line, _ := json.Marshal(Entry{Outcome: client.Outcome{Time: last, Server: server, Via: "in-process", Tool: tool, Status: client.StatusOK, OpenWorld: strings.HasPrefix(tool, "web")}})
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, last, last)
	s, _ := ParseSession(dir, filepath.Base(p))
	return s
}

func TestScanAcrossSessions(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().UTC().Truncate(time.Millisecond)
	writeSession(t, dir, now.Add(-72*time.Hour), 1, "fs", "read", "web_a")
	// Started three days ago and still written to within the last hour.
	long := writeSession(t, dir, now.Add(-72*time.Hour-time.Minute), 2, "demo", "x")
	longEntry, _ := json.Marshal(Entry{Outcome: client.Outcome{Time: now.Add(-30 * time.Minute), Server: "demo", Tool: "late", Status: client.StatusOK}})
	os.WriteFile(long.Path, append(append(must(os.ReadFile(long.Path)), longEntry...), '\n'), 0o600)
	writeSession(t, dir, now.Add(-time.Hour), 3, "demo", "web_b", "list")
	// Not JSON at all, last written long ago: --since must not even open it.
	junk := DefaultPath(dir, now.Add(-96*time.Hour), 4)
	os.WriteFile(junk, []byte("garbage\n"), 0o600)
	os.Chtimes(junk, now.Add(-96*time.Hour), now.Add(-96*time.Hour))
	os.WriteFile(filepath.Join(dir, "openworld.jsonl"), []byte("{}\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "README"), nil, 0o600)

	ss, err := Sessions(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range ss {
		ids = append(ids, fmt.Sprint(s.PID))
	}
	if strings.Join(ids, ",") != "3,1,2,4" {
		t.Fatalf("sessions %v, want newest first and only session logs", ids)
	}

	scan := func(f Filter) (got []string, warnings []string) {
		for r := range Scan(ss, f) {
			warnings = append(warnings, r.Warnings...)
			for _, e := range r.Entries {
				if e.Session != r.ID {
					t.Errorf("entry of %s names session %q", r.ID, e.Session)
				}
				got = append(got, fmt.Sprintf("%d:%s", r.PID, e.Tool))
			}
		}
		return got, warnings
	}
	got, warnings := scan(Filter{})
	if strings.Join(got, " ") != "3:web_b 3:list 1:read 1:web_a 2:x 2:late" || len(warnings) != 1 {
		t.Errorf("all: %v, warnings %v", got, warnings)
	}
	got, warnings = scan(Filter{Since: now.Add(-2 * time.Hour)})
	if strings.Join(got, " ") != "3:web_b 3:list 2:late" || len(warnings) != 0 {
		t.Errorf("--since 2h: %v, warnings %v (the junk file was opened?)", got, warnings)
	}
	got, _ = scan(Filter{OpenWorld: true})
	if strings.Join(got, " ") != "3:web_b 1:web_a" {
		t.Errorf("--open-world: %v", got)
	}
	got, _ = scan(Filter{Server: "f*", Tool: "re*"})
	if strings.Join(got, " ") != "1:read" {
		t.Errorf("--server f* --tool re*: %v", got)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	var ss []Session
	for i := range 8 {
		ss = append([]Session{{ID: IDOf(DefaultPath(dir, base.Add(time.Duration(i)*time.Hour), 100+i))}}, ss...)
	}
	if s, err := Find(ss, dir, "latest"); err != nil || s.ID != ss[0].ID {
		t.Errorf("latest: %v %v", s.ID, err)
	}
	if s, err := Find(ss, dir, ss[3].ID+".jsonl"); err != nil || s.ID != ss[3].ID {
		t.Errorf("by file name: %v %v", s.ID, err)
	}
	_, err := Find(ss, dir, "20261122T000000.000Z-1")
	if err == nil || !strings.Contains(err.Error(), ss[0].ID) || !strings.Contains(err.Error(), ss[4].ID) ||
		strings.Contains(err.Error(), ss[5].ID) || !strings.Contains(err.Error(), "and 3 older") {
		t.Errorf("unknown ID: %v", err)
	}
	if _, err := Find(nil, dir, "latest"); err == nil || !strings.Contains(err.Error(), "no session logs") {
		t.Errorf("no sessions: %v", err)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"2h":                   now.Add(-2 * time.Hour),
		"90m":                  now.Add(-90 * time.Minute),
		"7d":                   now.Add(-7 * 24 * time.Hour),
		"1d12h":                now.Add(-36 * time.Hour),
		"1.5d":                 now.Add(-36 * time.Hour),
		"2026-11-20T06:00:00Z": time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC),
	} {
		if got, err := ParseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "2", "d", "xd", "-2h", "0s", "2x", "1d-3h", "yesterday", "+1d", "1e3d"} {
		if _, err := ParseSince(bad, now); err == nil {
			t.Errorf("ParseSince(%q) accepted it", bad)
		}
	}
}

// BenchmarkScan reads across 1,000 sessions of 20 calls each, all of them
// and with --since 2h when all but two are older (their files are not opened):
//
//	go test ./internal/sessionlog -run '^$' -bench Scan
func BenchmarkScan(b *testing.B) {
	dir := b.TempDir()
	now := time.Now()
	tools := make([]string, 20)
	for i := range tools {
		tools[i] = fmt.Sprintf("tool_%d", i)
	}
	for i := range 1000 {
		writeSession(b, dir, now.Add(-time.Duration(1000-i)*time.Hour), 1000+i, "demo", tools...)
	}
	for _, bc := range []struct {
		name string
		f    Filter
		want int
	}{
		{"all", Filter{}, 20000},
		{"open-world", Filter{OpenWorld: true}, 0},
		{"since-2h", Filter{Since: now.Add(-2 * time.Hour)}, 40},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				ss, err := Sessions(dir)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for r := range Scan(ss, bc.f) {
					n += len(r.Entries)
				}
				if n != bc.want {
					b.Fatalf("%d entries, want %d", n, bc.want)
				}
			}
		})
	}
}
