// Package e2e runs the built mcpsh binary against real servers across real
// process boundaries: its own serve-demo, and the MCP reference servers from npm.
package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

var (
	mcpshBin    string // the built mcpsh
	baselineBin string // the bare go-sdk client used by the benchmark
	fixtureBin  string // a raw server that serves a tools JSON file as written
	repoRoot    string
)

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	_, file, _, _ := runtime.Caller(0)
	repoRoot = filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	dir, err := os.MkdirTemp("", "mcpsh-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	mcpshBin = filepath.Join(dir, "mcpsh")
	baselineBin = filepath.Join(dir, "baseline")
	fixtureBin = filepath.Join(dir, "fixtureserver")
	for bin, pkg := range map[string]string{mcpshBin: "./cmd/mcpsh", baselineBin: "./internal/e2e/baseline", fixtureBin: "./internal/e2e/fixtureserver"} {
		cmd := exec.Command("go", "build", "-o", bin, pkg)
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", pkg, err, out)
			return 1
		}
	}
	return m.Run()
}

type result struct {
	code        int
	out, errOut string
}

type opts struct {
	stdin string
	env   []string
	dir   string
}

// mcpsh runs the built binary and waits for it, with a generous deadline.
func mcpsh(t *testing.T, o opts, args ...string) result {
	t.Helper()
	cmd := exec.Command(mcpshBin, args...)
	cmd.Env = append(os.Environ(), o.env...)
	cmd.Dir = o.dir
	cmd.Stdin = strings.NewReader(o.stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("mcpsh %q hung\nstderr:\n%s", args, errOut.String())
	}
	return result{cmd.ProcessState.ExitCode(), out.String(), errOut.String()}
}

func wantCode(t *testing.T, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.out, r.errOut)
	}
}

func contains(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}

// npmBin finds a reference server installed by .ci/run. Under CI a missing
// server fails the test: a skipped check would pass without checking anything.
func npmBin(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("MCPSH_NPM_DIR")
	if dir == "" {
		dir = filepath.Join(repoRoot, ".cache", "npm")
	}
	p := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		msg := fmt.Sprintf("%s not installed at %s (run .ci/run, or npm install the reference servers there)", name, p)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}
