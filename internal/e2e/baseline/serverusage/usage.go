// Package serverusage lets a server run by internal/bench/compare report its own CPU
// time on its way out, so the benchmark can take it off the client's total
// (a child's rusage counts the server it waited for).
package serverusage

import (
	"fmt"
	"os"
)

// Env names the file a server appends its CPU time to, in microseconds, one
// line per server.
const Env = "BENCH_SERVER_USAGE"

// Report appends this process's user+sys time to $BENCH_SERVER_USAGE, if set.
func Report() {
	path := os.Getenv(Env)
	if path == "" {
		return
	}
	if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
		fmt.Fprintf(f, "%d\n", selfCPU().Microseconds())
		f.Close()
	}
}
