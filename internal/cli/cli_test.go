package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// The test binary doubles as `mcpsh serve-demo` for configured stdio servers.
func TestMain(m *testing.M) {
	if os.Getenv("MCPSH_TEST_SERVE_DEMO") == "1" {
		if err := demo.ServeStdio(context.Background(), demo.New()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(runInTempHome(m))
}

// runInTempHome runs the tests with HOME and the XDG folders in a temporary
// folder and MCPSH_CONFIG unset. Main gets its environment from each test, but
// the servers the tests start inherit the process's, and nothing a test runs
// may read the user's config or add to the user's session logs, which `mcpsh
// log` would then show as the latest. It fails the run if the user's sessions
// folder gained a file all the same.
func runInTempHome(m *testing.M) int {
	realSessions, _ := sessionlog.SessionsDir(os.LookupEnv)
	root, err := os.MkdirTemp("", "mcpsh-cli-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(root)
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"} {
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

type result struct {
	code        int
	out, errOut string
}

type env struct {
	tty   bool
	width int
	stdin string
	vars  map[string]string
}

// run invokes mcpsh in-process with the given streams; the demo server it
// starts is returned so tests can count executions on the server side.
func run(t *testing.T, e env, args ...string) (result, *demo.Server) {
	t.Helper()
	var srv *demo.Server
	old := newDemoServer
	newDemoServer = func() *demo.Server { srv = demo.New(); return srv }
	defer func() { newDemoServer = old }()
	io, in, out, errOut := iostreams.Test()
	in.WriteString(e.stdin)
	if e.tty {
		io.SetTTY(true, e.width)
	}
	vars := map[string]string{"HOME": t.TempDir()}
	for k, v := range e.vars {
		vars[k] = v
	}
	getenv := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	code := Main(context.Background(), args, io, getenv)
	return result{code, out.String(), errOut.String()}, srv
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

// writeConfig writes a config file and returns its path.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func lines(s string) []string {
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func containsStr(s, sub string) bool { return strings.Contains(s, sub) }
