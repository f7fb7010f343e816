//go:build unix && !linux

package client

import (
	"syscall"
	"time"
)

// waitGone waits for a process to disappear. Without /proc a zombie cannot be
// told from a live process, so this relies on the orphans of a killed tree
// being reaped by init (launchd on macOS), as they are.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
