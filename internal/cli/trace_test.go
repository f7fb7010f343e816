//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// A trace holds arguments and results in full: a file that was already
// there, readable by others, is made private before anything is written.
func TestTraceFileIsPrivate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, pre := range []bool{false, true} {
		path := filepath.Join(dir, "new.ndjson")
		if pre {
			path = filepath.Join(dir, "old.ndjson")
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tf, err := openTrace(path)
		if err != nil {
			t.Fatal(err)
		}
		tf.f.Close()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s (existed: %v) is %o, want 600", path, pre, perm)
		}
	}
}
