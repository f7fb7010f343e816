// Package uitest holds what the tests of ui and its sub-packages share:
// golden files, the checks every view must pass (its size, its width, no
// escape a server sent), key presses, calls' outcomes of every kind, and
// tools served the way mcpsh really gets them. Only tests import it.
package uitest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

// updating says whether to rewrite the golden files: go test ./ui/... -update.
// teatest's golden package registers -update too; both read the same flag.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

// Golden compares got, with ANSI sequences stripped so the files stay
// readable, against testdata/<name>.golden of the package under test (name
// may contain a folder, e.g. "logpane/empty-no-log-80"). With -update it
// writes the file instead.
func Golden(t *testing.T, name string, got string) {
	t.Helper()
	got = ansi.Strip(got)
	path := filepath.Join("testdata", filepath.FromSlash(name)+".golden")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write it with: go test ./ui/... -run %s -update)", err, t.Name())
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs from %s (-want +got):\n%s", t.Name(), path, diff)
	}
}

// AssertFits checks that a view has at most height lines, each at most width
// cells wide.
func AssertFits(t *testing.T, view string, width, height int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > height {
		t.Errorf("view has %d lines, more than height %d", len(lines), height)
	}
	for i, l := range lines {
		w, err := Cells(l)
		if err != nil {
			t.Errorf("line %d: %v: %+q", i+1, err, ansi.Strip(l))
		}
		if w > width {
			t.Errorf("line %d is %d cells wide, more than width %d: %q", i+1, w, width, ansi.Strip(l))
		}
	}
}
