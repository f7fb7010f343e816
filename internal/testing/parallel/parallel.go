// Package parallel holds what a test binary's TestMain calls to let more of
// its parallel tests run at once (Raise). Only tests import it: it imports
// nothing of mcpsh's, so any package's tests may.
package parallel

import (
	"flag"
	"runtime"
	"strconv"
)

// Raise lets more of a package's parallel tests run at once than
// go test's default, GOMAXPROCS, unless -parallel was given: tests that
// spend most of their time waiting on the processes and servers they start
// (mcpsh, test servers, tmux) leave a 2-core machine idle at a parallelism of
// 2. It allows perCPU tests per CPU, at least 8. Call it from TestMain before
// m.Run; it parses the flags.
func Raise(perCPU int) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(max(8, perCPU*runtime.GOMAXPROCS(0))))
	}
}
