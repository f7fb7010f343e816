package sessionlog

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
)

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(s)
	f.Close()
}

func entryLine(tool string, openWorld bool) string {
	b, _ := json.Marshal(Entry{Outcome: client.Outcome{Time: time.Now(), Server: "demo", Tool: tool, Status: client.StatusOK, OpenWorld: openWorld}})
	return string(b) + "\n"
}

func tools(f Followed) string {
	var out []string
	for _, e := range f.Entries {
		out = append(out, e.Tool+"@"+e.Session[len(e.Session)-1:])
	}
	return strings.Join(out, " ")
}

// TestFollow checks tailing across sessions: existing files from their end, a
// session that starts later from its beginning, a line caught half-written
// held back until it is whole, and a broken line named by file and line.
func TestFollow(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := writeSession(t, dir, now.Add(-time.Hour), 1, "demo", "before_1", "before_2")
	// A line being written as the follower starts: read whole, later.
	appendTo(t, old.Path, `{"tool":"halfway","sta`)

	fl, err := FollowDir(dir, Filter{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fl.Poll(); len(got.Entries) != 0 || len(got.Warnings) != 0 {
		t.Fatalf("first poll: %s %v; want nothing (follow starts at the end)", tools(got), got.Warnings)
	}
	appendTo(t, old.Path, `tus":"ok"}`+"\n"+entryLine("after_1", false))
	if got := fl.Poll(); tools(got) != "halfway@1 after_1@1" || len(got.Warnings) != 0 {
		t.Errorf("after appending: %q %v", tools(got), got.Warnings)
	}

	// Half a line is not a broken line: it is held until its newline comes.
	line := entryLine("torn_then_whole", false)
	appendTo(t, old.Path, line[:20])
	if got := fl.Poll(); len(got.Entries) != 0 || len(got.Warnings) != 0 {
		t.Errorf("half a line: %s %v", tools(got), got.Warnings)
	}
	appendTo(t, old.Path, line[20:])
	if got := fl.Poll(); tools(got) != "torn_then_whole@1" {
		t.Errorf("the line completed: %q %v", tools(got), got.Warnings)
	}

	// A session that starts after the follower: read from its start.
	fresh := DefaultPath(dir, now, 2)
	appendTo(t, fresh, entryLine("new_1", false)+entryLine("new_2", true))
	if got := fl.Poll(); tools(got) != "new_1@2 new_2@2" {
		t.Errorf("new session: %q", tools(got))
	}

	// A broken whole line is a warning naming the file and its line: line 6
	// of the first file (2 before, halfway, after_1, torn_then_whole).
	appendTo(t, old.Path, "not json\n"+entryLine("after_garbage", false))
	got := fl.Poll()
	if tools(got) != "after_garbage@1" || len(got.Warnings) != 1 || got.Warnings[0] != old.Path+": line 6 is not a log entry: skipped (invalid character 'o' in literal null (expecting 'u'))" {
		t.Errorf("garbage: %q %q", tools(got), got.Warnings)
	}
	// A torn line the next writer ended with a newline is cut short.
	appendTo(t, fresh, `{"tool":"killed`+"\n")
	if got := fl.Poll(); len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], fresh+": line 3 is cut short") {
		t.Errorf("torn: %q", got.Warnings)
	}
}

func TestFollowFilterAndCatchUp(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	writeSession(t, dir, now.Add(-72*time.Hour), 1, "demo", "web_ancient")
	recent := writeSession(t, dir, now.Add(-10*time.Minute), 2, "demo", "web_recent", "local")
	fl, err := FollowDir(dir, Filter{OpenWorld: true, Since: now.Add(-time.Hour)}, now.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got := fl.Poll(); tools(got) != "web_recent@2" {
		t.Errorf("catch-up from --since: %q", tools(got))
	}
	appendTo(t, recent.Path, entryLine("web_later", true)+entryLine("local_later", false))
	if got := fl.Poll(); tools(got) != "web_later@2" {
		t.Errorf("filtered follow: %q", tools(got))
	}

	one, err := FollowFile(recent.Path, Filter{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := one.Poll(); len(got.Entries) != 4 {
		t.Errorf("one file from its start: %q", tools(got))
	}
	if _, err := FollowFile(recent.Path+".missing", Filter{}, true); err == nil {
		t.Error("following a missing file")
	}
}

// TestFollowQuietFiles checks that a file not written for a while is still
// followed, at the slower sweep.
func TestFollowQuietFiles(t *testing.T) {
	dir := t.TempDir()
	quiet := writeSession(t, dir, time.Now().Add(-48*time.Hour), 1, "demo", "x")
	fl, _ := FollowDir(dir, Filter{}, time.Time{})
	appendTo(t, quiet.Path, entryLine("woke_up", false))
	n := 0
	for ; n < sweepEvery; n++ {
		if got := fl.Poll(); len(got.Entries) > 0 {
			if tools(got) != "woke_up@1" {
				t.Errorf("got %q", tools(got))
			}
			break
		}
	}
	if n == sweepEvery {
		t.Errorf("the quiet file's new entry was not seen in %d polls", sweepEvery)
	}
}
