// Package e2e runs the built mcpsh binary against real servers across real
// process boundaries: its own serve-demo, and the MCP reference servers from npm.
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/testing/parallel"
	"github.com/mcpsh/mcpsh/internal/testing/testenv"
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
	if err := keepGoEnv(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "mcpsh-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// One go build for the three (each is named for its folder): the
	// packages are loaded once and linked side by side. -buildvcs=auto: the
	// binary names the checkout's commit (--version) even where GOFLAGS turns
	// stamping off. -ldflags=-w: no DWARF, which only a debugger reads, and
	// which is half of the link.
	cmd := exec.Command("go", "build", "-buildvcs=auto", "-ldflags=-w", "-o", dir+string(filepath.Separator),
		"./cmd/mcpsh", "./internal/e2e/baseline", "./internal/e2e/fixtureserver")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building mcpsh and the test servers: %v\n%s", err, out)
		return 1
	}
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	mcpshBin = filepath.Join(dir, "mcpsh"+exe)
	baselineBin = filepath.Join(dir, "baseline"+exe)
	fixtureBin = filepath.Join(dir, "fixtureserver"+exe)
	// MCPSH_E2E_BIN runs the suite against another mcpsh binary, e.g. one built
	// from an older commit, to show which tests its defences make pass.
	if b := os.Getenv("MCPSH_E2E_BIN"); b != "" {
		mcpshBin = b
	}
	homesRoot = filepath.Join(dir, "homes")
	if err := os.Mkdir(homesRoot, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The tests wait on the processes they start (servers, mcpsh, tmux) and
	// for screens to settle far more than they compute; each has its own
	// HOME (testEnv) and tmux socket, so many can run at once.
	parallel.Raise(4)
	return testenv.RunInTempHome(runChecked{m})
}

// runChecked runs the tests, then fails the run if one of them ran mcpsh
// in the shared temporary HOME instead of its own (noteStrays).
type runChecked struct{ m *testing.M }

func (r runChecked) Run() int {
	code := r.m.Run()
	if err := noteStrays(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	return code
}

// keepGoEnv pins go's caches, GOPATH and env file to the user's, found while
// HOME is still the user's, so that the tests that run go build once HOME has
// moved (RunInTempHome) neither fill an empty cache nor miss the settings.
func keepGoEnv() error {
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV").Output()
	if err != nil {
		return fmt.Errorf("go env: %w", err)
	}
	var goVars map[string]string
	if err := json.Unmarshal(out, &goVars); err != nil {
		return fmt.Errorf("go env -json: %w", err)
	}
	for k, v := range goVars {
		os.Setenv(k, v)
	}
	return nil
}

// patience is how long a test waits for what it expects (a screen, a line,
// a file, a process's end) before it fails. A passing test never waits it
// out, so it can be long: the tests run in parallel, under -race in CI, on
// machines that may be busy with other work.
const patience = 3 * time.Minute

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
	cmd := command(t, mcpshBin, args...)
	cmd.Env = testEnv(t, o.env...)
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
	case <-time.After(patience):
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

var contains = testenv.Contains

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

// started is a process under test, waited for in the background so that a
// wait for a marker can notice the process ending first.
type started struct {
	cmd         *exec.Cmd
	out, errOut strings.Builder // read them only once done is closed
	done        chan struct{}
	err         error
}

func start(t *testing.T, cmd *exec.Cmd) *started {
	t.Helper()
	p := &started{cmd: cmd, done: make(chan struct{})}
	if cmd.Env == nil {
		cmd.Env = testEnv(t)
	}
	cmd.Stdout, cmd.Stderr = &p.out, &p.errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(p.kill)
	return p
}

func (p *started) kill() {
	select {
	case <-p.done:
	default:
		p.cmd.Process.Kill()
		<-p.done
	}
}

// wait waits for the process to end, with the same generous bound as mcpsh,
// and returns its exit code.
func (p *started) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(patience):
		p.kill()
		t.Fatalf("%q hung\nstderr:\n%s", p.cmd.Args, p.errOut.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// withSlowMark has the demo's slow_count, in process or in a serve-demo child,
// write a line to a file when it starts and after each step (demo.MarkEnv).
func withSlowMark(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	mark := filepath.Join(t.TempDir(), "slow_count.mark")
	cmd.Env = testEnv(t, demo.MarkEnv+"="+mark)
	return mark
}

// waitForSlowCount waits until slow_count has started on the server, so
// that what the test does next happens while a call is in flight. It fails
// the test if the process ends first or the count never starts.
func waitForSlowCount(t *testing.T, p *started, mark string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		if b, _ := os.ReadFile(mark); len(b) > 0 {
			return
		}
		select {
		case <-p.done:
			t.Fatalf("%q ended (%v) before slow_count started on the server\nstdout:\n%s\nstderr:\n%s",
				p.cmd.Args, p.err, p.out.String(), p.errOut.String())
		case <-deadline:
			p.kill()
			t.Fatalf("slow_count never started on the server: %s stayed empty for 30s\nstderr:\n%s", mark, p.errOut.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
