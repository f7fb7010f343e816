package hostedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/config"
)

// Replace writes the new text in one rename, keeping the file's
// permissions; through a symlink, the link stays and its target changes.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "mcp.json")
	os.WriteFile(real, []byte("old\n"), 0o640)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	s, err := Read(link)
	if err != nil || string(s.Data) != "old\n" || s.Real != real {
		t.Fatalf("%+v %v", s, err)
	}
	if err := s.Replace([]byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(real); string(data) != "new\n" {
		t.Errorf("target: %q", data)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is gone: %v %v", fi, err)
	}
	if fi, _ := os.Stat(real); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode())
	}
	if left := tempFiles(t, dir); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
}

// A file someone wrote after mcpsh read it is left as they wrote it.
func TestReplaceRefusesAFileThatChanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	os.WriteFile(path, []byte(`{"a": 1}`), 0o600)
	s, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// The host writes the file meanwhile: same size, another time.
	os.WriteFile(path, []byte(`{"a": 2}`), 0o600)
	later := time.Now().Add(time.Second)
	os.Chtimes(path, later, later)
	fi, _ := os.Stat(path)
	if err := s.Replace([]byte(`{"a": 3}`)); !errors.Is(err, ErrChanged) {
		t.Fatalf("%v", err)
	}
	data, _ := os.ReadFile(path)
	after, _ := os.Stat(path)
	if string(data) != `{"a": 2}` || !after.ModTime().Equal(fi.ModTime()) {
		t.Errorf("the host's write was lost: %q", data)
	}
	// Same size and time, other bytes: still refused.
	os.WriteFile(path, []byte(`{"a": 1}`), 0o600)
	s, _ = Read(path)
	st, _ := os.Stat(path)
	os.WriteFile(path, []byte(`{"b": 1}`), 0o600)
	os.Chtimes(path, st.ModTime(), st.ModTime())
	if err := s.Replace([]byte(`{"a": 3}`)); !errors.Is(err, ErrChanged) {
		t.Errorf("same size and time: %v", err)
	}
	if left := tempFiles(t, dir); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
}

func TestReadRefusesWhatIsNotAFile(t *testing.T) {
	if _, err := Read(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("%v", err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "none.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%v", err)
	}
}

// tempFiles are the temporary files mcpsh may have left in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".mcpsh-") || strings.HasPrefix(e.Name(), ".record-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// Backup keeps the whole file, Keep the entry's bytes, private to the
// user; Find finds the record by the server, and only once it is kept; a
// new edit of the entry replaces its record; Remove keeps the backup.
func TestStore(t *testing.T) {
	st := NewStore(t.TempDir())
	c := wrapCases[4] // cursor github
	p := c.wrap(t)
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	r, err := st.Backup(p, c.hostFile(), "v1.2.3", now)
	if err != nil {
		t.Fatal(err)
	}
	if found, err := st.Find(config.HostCursor, "github"); err != nil || len(found) != 0 {
		t.Fatalf("a record before Keep: %v %v", found, err)
	}
	if err := st.Keep(r); err != nil {
		t.Fatal(err)
	}
	backup, err := os.ReadFile(r.Backup)
	if err != nil || !bytes.Equal(backup, p.Old) {
		t.Fatalf("backup: %v", err)
	}
	if !strings.HasSuffix(r.Backup, filepath.Join("backups", "cursor-github-20260701T120000.000Z.json")) {
		t.Errorf("backup at %s", r.Backup)
	}
	if runtime.GOOS != "windows" {
		for path, want := range map[string]os.FileMode{r.Backup: 0o600, r.Path(): 0o600, filepath.Join(st.Dir, "records"): 0o700, filepath.Join(st.Dir, "backups"): 0o700} {
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
				t.Errorf("%s: %v %v", path, fi.Mode(), err)
			}
		}
	}
	var saved map[string]any
	data, _ := os.ReadFile(r.Path())
	if err := json.Unmarshal(data, &saved); err != nil || saved["original"] != string(p.Original) || saved["written"] != string(p.Written) ||
		saved["file"] != p.File || saved["key"] != "mcpServers.github" || saved["mcpsh"] != "v1.2.3" || saved["host"] != "cursor" {
		t.Errorf("record: %s %v", data, err)
	}
	r2, err := st.Backup(p, c.hostFile(), "v1.2.3", now)
	if err == nil {
		err = st.Keep(r2)
	}
	if err != nil || r2.Path() != r.Path() || r2.Backup == r.Backup {
		t.Errorf("second save: %+v %v", r2, err)
	}
	found, err := st.Find(config.HostCursor, "github")
	if err != nil || len(found) != 1 || found[0].Path() != r.Path() || found[0].Written != string(p.Written) {
		t.Fatalf("%v %v", found, err)
	}
	if other, _ := st.Find(config.HostCodex, "github"); len(other) != 0 {
		t.Errorf("another host's: %v", other)
	}
	if err := st.Remove(found[0]); err != nil {
		t.Fatal(err)
	}
	if again, _ := st.Find(config.HostCursor, "github"); len(again) != 0 {
		t.Errorf("removed: %v", again)
	}
	if _, err := os.Stat(r.Backup); err != nil {
		t.Errorf("the backup went with the record: %v", err)
	}
	if found, err := NewStore(t.TempDir()).Find(config.HostCursor, "github"); err != nil || found != nil {
		t.Errorf("empty store: %v %v", found, err)
	}
}
