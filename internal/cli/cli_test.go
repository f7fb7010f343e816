package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/parallel"
	"github.com/mcpsh/mcpsh/internal/testing/testenv"
	"github.com/spf13/pflag"
)

// serveDemoArg, as the test binary's first argument, makes it the demo
// server, as MCPSH_TEST_SERVE_DEMO=1 does: a test that names the server after
// -- needs no change to the process's environment, and runs in parallel.
const serveDemoArg = "mcpsh-test-serve-demo"

// The test binary doubles as `mcpsh serve-demo` for configured stdio servers.
func TestMain(m *testing.M) {
	if os.Getenv("MCPSH_TEST_SERVE_DEMO") == "1" || len(os.Args) > 1 && os.Args[1] == serveDemoArg {
		if err := demo.ServeStdio(context.Background(), demo.New()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if code, ok := fixture.ServeStdioFromEnv(); ok {
		os.Exit(code) // this binary as a raw JSON-RPC server (identity_test.go)
	}
	// Most tests wait on a server they started (this binary, or an httptest
	// one), the audit probe's on retries' backoff: at go test's default
	// of 2 at once, a 2-core machine sits idle.
	parallel.Raise(4)
	os.Exit(testenv.RunInTempHome(m))
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
	// syncLog, when set, is called to sync the session log before a call.
	syncLog func(*sessionlog.Writer, *client.Outcome) error
}

// run invokes mcpsh in-process with the given streams; the demo server it
// starts is returned so tests can count executions on the server side.
// Nothing it sets outlives the call, so tests that use it run in parallel.
func run(t *testing.T, e env, args ...string) (result, *demo.Server) {
	t.Helper()
	f, out, errOut := testFactory(t, e)
	var srv *demo.Server
	f.newDemo = func() *demo.Server { srv = demo.New(); return srv }
	code := execute(context.Background(), f, args)
	return result{code, out.String(), errOut.String()}, srv
}

// testFactory is the factory run gives mcpsh, for the tests that build one
// command (newXCmd) or call its run function (xRun) with options of their
// own: stdout and stderr are the buffers it returns.
func testFactory(t *testing.T, e env) (*factory, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
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
	f := newFactory(io, getenv)
	// The shared flags' defaults, as the root command would register them.
	fs := pflag.NewFlagSet("mcpsh", pflag.ContinueOnError)
	f.target.register(fs)
	f.logs.register(fs)
	if cwd, ok := hostsCwd.Load(t); ok {
		f.getwd = func() (string, error) { return cwd.(string), nil }
	}
	if e.syncLog != nil {
		f.syncLog = e.syncLog
	}
	return f, out, errOut
}

func wantCode(t *testing.T, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.out, r.errOut)
	}
}

var contains = testenv.Contains

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
