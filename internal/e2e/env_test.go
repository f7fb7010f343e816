package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The tests run in parallel (each calls t.Parallel, and TestMain raises
// -parallel), so no two may share a HOME: one test's session logs would be
// the "latest" another's `mcpsh log` reads, its config another's, its proxy
// one that another's `mcpsh watch` sees. Each test therefore runs what it
// starts in an environment of its own (testEnv): HOME and the XDG folders
// in folders no other test uses. TestMain's temporary HOME stays the
// process's, as a net: noteStrays fails the run when a test left a session
// log there, which only a process started without testEnv can have done.

// homeVars are the variables testEnv points at a test's own folders, with
// the name of each folder (short: XDG_RUNTIME_DIR holds unix sockets, whose
// paths may not pass about 100 bytes).
var homeVars = []struct{ name, dir string }{
	{"HOME", "home"}, {"XDG_CONFIG_HOME", "config"}, {"XDG_STATE_HOME", "state"},
	{"XDG_CACHE_HOME", "cache"}, {"XDG_DATA_HOME", "data"}, {"XDG_RUNTIME_DIR", "run"},
}

var (
	homesRoot string // set by TestMain; removed after the run
	homesMu   sync.Mutex
	homes     = map[string][]string{} // by top-level test: its homeVars, as KEY=VALUE
)

// testEnv is the environment for a process test t starts: the process's
// own, with HOME and the XDG folders in folders of t's own, then extra (a
// later KEY=VALUE wins, as exec.Cmd reads Env). A subtest shares its
// top-level test's folders, as it shared the whole run's before, so what a
// test writes in one step its next step still reads.
func testEnv(t testing.TB, extra ...string) []string {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	homesMu.Lock()
	vars, ok := homes[top]
	if !ok {
		root, err := os.MkdirTemp(homesRoot, "t")
		if err != nil {
			homesMu.Unlock()
			t.Fatal(err)
		}
		for _, v := range homeVars {
			d := filepath.Join(root, v.dir)
			if err := os.Mkdir(d, 0o700); err != nil {
				homesMu.Unlock()
				t.Fatal(err)
			}
			vars = append(vars, v.name+"="+d)
		}
		homes[top] = vars
		if top == t.Name() {
			// A second run of the test (-count) starts from empty folders.
			t.Cleanup(func() {
				homesMu.Lock()
				delete(homes, top)
				homesMu.Unlock()
			})
		}
	}
	homesMu.Unlock()
	env := append(os.Environ(), vars...)
	return append(env, extra...)
}

// testHome is the value testEnv gives t's processes for one of homeVars.
func testHome(t testing.TB, name string) string {
	t.Helper()
	env := testEnv(t)
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	t.Fatalf("testEnv sets no %s", name)
	return ""
}

// noteStrays reports the session logs that appeared in the process's own
// (TestMain's) state folder during the run: a test started mcpsh without
// testEnv, so it shared that folder with every other such test.
func noteStrays() error {
	dir := filepath.Join(os.Getenv("XDG_STATE_HOME"), "mcpsh", "sessions")
	entries, _ := os.ReadDir(dir)
	if len(entries) == 0 {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return fmt.Errorf("session logs appeared in the shared test home %s: a test started mcpsh without testEnv, "+
		"so it shares its HOME with the tests running beside it: %s", dir, strings.Join(names, ", "))
}

// command is exec.Command for a process test t starts, in t's own
// environment (testEnv).
func command(t testing.TB, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = testEnv(t)
	return cmd
}
