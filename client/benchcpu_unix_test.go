//go:build unix

package client

import (
	"syscall"
	"testing"
	"time"
)

// cpuMeter reports this process's user+sys time per op, which on a busy
// machine says more than the wall time does. The server is a child process
// and not counted.
func cpuMeter(b *testing.B) func() {
	start := processCPU()
	return func() {
		b.ReportMetric(float64((processCPU()-start).Microseconds())/float64(b.N), "cpu-µs/op")
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
