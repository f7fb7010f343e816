package cli

import (
	"context"
	"github.com/mcpsh/mcpsh/internal/testing/benchcpu"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/iostreams"
)

// BenchmarkRunScript is `mcpsh run` with a script of b.N read-only calls over
// one stdio session to the demo server (this test binary, re-run as the
// server), so a CPU profile shows mcpsh's own cost per call and not the
// server's. internal/bench/compare.sh holds the whole binary against a bare go-sdk
// client; this is the loop to profile:
//
//	go test ./internal/cli -run '^$' -bench RunScript/no-log -benchtime 2000x -cpuprofile /tmp/cpu.out
//	go tool pprof -top -cum /tmp/cpu.out
func BenchmarkRunScript(b *testing.B) {
	for _, c := range []struct {
		name string
		flag []string
	}{{"no-log", []string{"--no-log"}}, {"log", nil}, {"json", []string{"--no-log", "--json"}}} {
		b.Run(c.name, func(b *testing.B) { benchRunScript(b, c.flag) })
	}
}

func benchRunScript(b *testing.B, flags []string) {
	b.Setenv("MCPSH_TEST_SERVE_DEMO", "1")
	dir := b.TempDir()
	lines := []string{`get_note {"id": 1}`, `search_notes {"query": "release"}`, `list_notes`}
	var sb strings.Builder
	for i := range b.N {
		sb.WriteString(lines[i%len(lines)] + "\n")
	}
	script := filepath.Join(dir, "calls.txt")
	if err := os.WriteFile(script, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	args := append([]string{"run", "--protocol", "2026-07-28"}, flags...)
	args = append(args, script, "--", os.Args[0])
	vars := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, "state")}
	getenv := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	io, _, out, errOut := iostreams.Test()
	b.ReportAllocs()
	b.ResetTimer()
	report := benchcpu.Meter(b)
	if code := Main(context.Background(), args, io, getenv); code != 0 {
		b.Fatalf("exit %d\n%s", code, errOut.String())
	}
	b.StopTimer()
	report()
	if n := strings.Count(errOut.String(), "ok"); n == 0 || out.Len() == 0 {
		b.Fatalf("no calls ran:\n%s", errOut.String())
	}
}
