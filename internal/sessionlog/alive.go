package sessionlog

import (
	"errors"
	"os"
	"runtime"
	"syscall"
)

// processAlive reports whether a process with this ID runs, so Prune leaves
// the logs of running sessions alone; tests replace it. A process ID used
// again by another program keeps an old log a little longer, which is the
// safe way to be wrong.
var processAlive = func(pid int) bool {
	if pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	if runtime.GOOS == "windows" {
		return true // FindProcess opened it, so it exists
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
