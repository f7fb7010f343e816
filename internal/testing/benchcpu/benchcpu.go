// Package benchcpu lets a benchmark report the process's CPU time per op
// (user+sys), which on a busy machine says more than wall time does. Only
// benchmarks import it. A server run as a child process is not counted.
package benchcpu

import "testing"

// Meter starts measuring; calling what it returns reports cpu-µs/op. Where
// the platform cannot tell, it reports nothing.
func Meter(b *testing.B) func() {
	start, ok := processCPU()
	if !ok {
		return func() {}
	}
	return func() {
		end, _ := processCPU()
		b.ReportMetric(float64((end-start).Microseconds())/float64(b.N), "cpu-µs/op")
	}
}
