//go:build !unix

package client

import "testing"

// cpuMeter is not available here; the wall time is all there is.
func cpuMeter(*testing.B) func() { return func() {} }
