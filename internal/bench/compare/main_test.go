package main

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain plays the demo server, as main does, for the comparisons run
// by this test binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve-demo" {
		serve()
		return
	}
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the one build of mcpsh and the yardsticks the tests share:
// linking them is most of this package's cost.
var built struct {
	once sync.Once
	dir  string
	bins map[string]string
	err  error
}

func binaries(t *testing.T) map[string]string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "mcpsh-bench-test-"); built.err == nil {
			built.bins, built.err = build(built.dir, "")
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bins
}

// The benchmark does not run in CI with timings that could fail; this
// runs every comparison once, with a few calls, so that a change that
// breaks the benchmark, its fast server or the proxy row is noticed.
func TestSmoke(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds mcpsh and the yardsticks")
	}
	o := options{runs: 1, calls: 4, protocol: "2026-07-28", servers: "demo,fast", bins: binaries(t)}
	if err := run(o); err != nil {
		t.Fatal(err)
	}
}

// TestFastServer holds the fast server to what the benchmark needs of it:
// a read-only tool and a destructive one, as declared, answering a constant.
func TestFastServer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the fast server")
	}
	bin := binaries(t)["fastserver"]
	usage := t.TempDir() + "/usage"
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "BENCH_SERVER_USAGE="+usage)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	hints := map[string]*mcp.ToolAnnotations{}
	for _, tl := range tools.Tools {
		hints[tl.Name] = tl.Annotations
	}
	if a := hints["echo"]; a == nil || !a.ReadOnlyHint {
		t.Errorf("echo's annotations are %+v, want readOnlyHint true", a)
	}
	if a := hints["reset"]; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("reset's annotations are %+v, want destructiveHint true", a)
	}
	for tool, want := range map[string]string{"echo": "ok", "reset": "reset"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if got := resultText(res); res.IsError || got != want {
			t.Errorf("%s answered %q (isError %v), want %q", tool, got, res.IsError, want)
		}
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	if cpu, err := serverCPU(usage); err != nil || cpu <= 0 {
		t.Errorf("the fast server reported cpu %v, %v; want its time", cpu, err)
	}
}
