// Package testenv holds what the tests of several packages share: a
// temporary HOME for a whole test binary (RunInTempHome), the other hosts'
// config files installed in a folder (InstallHosts), and the check the
// command suites make of what mcpsh printed (Contains). Only tests import it:
// internal/archtest fails if anything else does.
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// RunInTempHome runs the tests with HOME and the XDG folders in a temporary
// folder and MCPSH_CONFIG unset, and returns the exit code for os.Exit. The
// servers and binaries the tests start inherit the process's environment, and
// nothing a test runs may read the user's config or add to the user's session
// logs, which `mcpsh log` would then show as the latest. It fails the run if
// the user's sessions folder gained a file all the same.
//
// Call it from TestMain after anything that needs the user's own HOME (go
// build finds its caches there). m is the *testing.M, or something that runs
// it and checks more while the temporary HOME is still there.
func RunInTempHome(m interface{ Run() int }) int {
	realSessions, _ := sessionlog.SessionsDir(os.LookupEnv)
	root, err := os.MkdirTemp("", "mcpsh-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(root)
	// XDG_RUNTIME_DIR too: a proxy a test starts registers there, where
	// the user's own mcpsh watch would see it (and could answer it).
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"} {
		d := filepath.Join(root, strings.ToLower(k))
		if err := os.MkdirAll(d, 0o700); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		os.Setenv(k, d)
	}
	os.Unsetenv("MCPSH_CONFIG")
	before := namesIn(realSessions)
	code := m.Run()
	var added []string
	for name := range namesIn(realSessions) {
		if !before[name] {
			added = append(added, name)
		}
	}
	if len(added) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: session logs appeared in the user's own %s while the tests ran "+
			"(a test escaped the temporary HOME, unless another mcpsh was running): %s\n", realSessions, strings.Join(added, ", "))
		code = 1
	}
	return code
}

// namesIn lists a folder; a missing one (or "") has nothing in it.
func namesIn(dir string) map[string]bool {
	names := map[string]bool{}
	if dir == "" {
		return names
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names[e.Name()] = true
	}
	return names
}
