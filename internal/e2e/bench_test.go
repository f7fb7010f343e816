package e2e

import (
	"os/exec"
	"testing"
	"time"
)

// BenchmarkToolsJSON compares `mcpsh tools --json` with a bare go-sdk program
// that connects, lists and prints, both against the same Go stdio server
// (mcpsh serve-demo), alternating in one run so machine noise hits both alike.
// The goal is a ratio within 1.25.
//
//	go test ./internal/e2e -run '^$' -bench ToolsJSON -benchtime 40x
func BenchmarkToolsJSON(b *testing.B) {
	server := []string{mcpshBin, "serve-demo"}
	commands := map[string][]string{
		"mcpsh":    append([]string{mcpshBin, "tools", "--json", "--"}, server...),
		"baseline": append([]string{baselineBin}, server...),
	}
	total := map[string]time.Duration{}
	for _, name := range []string{"mcpsh", "baseline"} { // warm the page cache
		exec.Command(commands[name][0], commands[name][1:]...).Run()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, name := range []string{"mcpsh", "baseline"} {
			c := commands[name]
			start := time.Now()
			if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
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
