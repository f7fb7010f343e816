package client

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// waitGone waits for a process to disappear.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		// A killed process may linger as a zombie until reaped: that counts as gone.
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
