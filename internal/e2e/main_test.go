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
	"github.com/mcpsh/mcpsh/internal/sessionlog"
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
	realSessions, err := isolateHome(filepath.Join(dir, "home"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mcpshBin = filepath.Join(dir, "mcpsh")
	baselineBin = filepath.Join(dir, "baseline")
	fixtureBin = filepath.Join(dir, "fixtureserver")
	for bin, pkg := range map[string]string{mcpshBin: "./cmd/mcpsh", baselineBin: "./internal/e2e/baseline", fixtureBin: "./internal/e2e/fixtureserver"} {
		// -buildvcs=auto: the binary names the checkout's commit (--version)
		// even where GOFLAGS turns stamping off.
		cmd := exec.Command("go", "build", "-buildvcs=auto", "-o", bin, pkg)
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", pkg, err, out)
			return 1
		}
	}
	// MCPSH_E2E_BIN runs the suite against another mcpsh binary, e.g. one built
	// from an older commit, to show which tests its defences make pass.
	if b := os.Getenv("MCPSH_E2E_BIN"); b != "" {
		mcpshBin = b
	}
	before := sessionFiles(realSessions)
	code := m.Run()
	if added := newSessionFiles(realSessions, before); len(added) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: session logs appeared in the user's own %s while the tests ran "+
			"(a test escaped the temporary HOME, unless another mcpsh was running): %s\n", realSessions, strings.Join(added, ", "))
		code = 1
	}
	return code
}

// isolateHome points HOME and the XDG folders at a folder under root and
// forgets MCPSH_CONFIG, so neither the tests nor the processes they start read
// the user's config or add to the user's session logs, which `mcpsh log` would
// then show as the latest. go build keeps the user's caches and go env file,
// found before HOME moves. It returns the user's sessions folder.
func isolateHome(root string) (string, error) {
	realSessions, _ := sessionlog.SessionsDir(os.LookupEnv)
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	var goVars map[string]string
	if err := json.Unmarshal(out, &goVars); err != nil {
		return "", fmt.Errorf("go env -json: %w", err)
	}
	for k, v := range goVars {
		os.Setenv(k, v)
	}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"} {
		d := filepath.Join(root, strings.ToLower(k))
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", err
		}
		os.Setenv(k, d)
	}
	os.Unsetenv("MCPSH_CONFIG")
	return realSessions, nil
}

// sessionFiles lists a sessions folder; a missing folder has none.
func sessionFiles(dir string) map[string]bool {
	names := map[string]bool{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names[e.Name()] = true
	}
	return names
}

func newSessionFiles(dir string, before map[string]bool) []string {
	if dir == "" {
		return nil
	}
	var added []string
	for name := range sessionFiles(dir) {
		if !before[name] {
			added = append(added, name)
		}
	}
	return added
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
	case <-time.After(60 * time.Second):
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
	cmd.Env = append(os.Environ(), demo.MarkEnv+"="+mark)
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
