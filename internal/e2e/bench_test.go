package e2e

import (
	"os/exec"
	"testing"
	"time"
)

// BenchmarkToolsJSON compares `mcpsh tools --json` with a bare go-sdk program
// that connects, lists and prints, both against the same Go stdio server
// (mcpsh serve-demo), alternating in one run so machine noise hits both alike,
// at the same protocol version: 2026-07-28 (what mcpsh's auto settles on with
// a go-sdk server) and 2025-11-25. The goal is a ratio within 1.25.
//
//	go test ./internal/e2e -run '^$' -bench ToolsJSON -benchtime 40x
func BenchmarkToolsJSON(b *testing.B) {
	for _, v := range []string{"2026-07-28", "2025-11-25"} {
		b.Run(v, func(b *testing.B) { benchToolsJSON(b, v) })
	}
}

func benchToolsJSON(b *testing.B, protocol string) {
	server := []string{mcpshBin, "serve-demo"}
	commands := map[string][]string{
		"mcpsh":    append([]string{mcpshBin, "tools", "--json", "--protocol", protocol, "--"}, server...),
		"baseline": append([]string{baselineBin}, server...),
	}
	run := func(name string) *exec.Cmd {
		c := commands[name]
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Env = testEnv(b, "BASELINE_PROTOCOL="+protocol)
		return cmd
	}
	total := map[string]time.Duration{}
	for _, name := range []string{"mcpsh", "baseline"} { // warm the page cache
		run(name).Run()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, name := range []string{"mcpsh", "baseline"} {
			start := time.Now()
			if out, err := run(name).CombinedOutput(); err != nil {
				b.Fatalf("%s: %v\n%s", name, err, out)
			}
			total[name] += time.Since(start)
		}
	}
	mcpsh, base := total["mcpsh"]/time.Duration(b.N), total["baseline"]/time.Duration(b.N)
	b.ReportMetric(float64(mcpsh.Microseconds())/1000, "mcpsh-ms")
	b.ReportMetric(float64(base.Microseconds())/1000, "baseline-ms")
	b.ReportMetric(float64(mcpsh)/float64(base), "ratio")
}
