//go:build !unix

package console

import (
	"net"
	"time"
)

// The link is not supported on Windows yet (a named pipe with an owner-only
// security descriptor is the plan): a proxy there runs without it, and
// mcpsh watch says so.

func listen(string) (net.Listener, error)          { return nil, ErrUnsupported }
func dial(string, time.Duration) (net.Conn, error) { return nil, ErrUnsupported }
func peerUID(net.Conn) (int, error)                { return -1, ErrUnsupported }
func me() int                                      { return -1 }

func refused(error) bool { return false }
