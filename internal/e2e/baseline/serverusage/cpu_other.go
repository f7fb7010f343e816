//go:build !unix

package serverusage

import "time"

// selfCPU is not measured here; the clients' cpu then includes the server's.
func selfCPU() time.Duration { return 0 }
