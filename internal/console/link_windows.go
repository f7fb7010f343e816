//go:build windows

package console

import (
	"errors"
	"net"
	"syscall"
	"time"

	"golang.org/x/sys/windows"
)

// systemLink: on Windows the kernel cannot say who is at the other end of
// a local socket, so the link is loopback TCP with the proxy's token
// (link_token.go).
const systemLink = linkToken

func listenSocket(string) (net.Listener, error)          { return nil, ErrUnsupported }
func dialSocket(string, time.Duration) (net.Conn, error) { return nil, ErrUnsupported }
func peerUID(net.Conn) (int, error)                      { return -1, ErrUnsupported }
func me() int                                            { return -1 }

// refused says a dial found no one listening on a proxy's port: the entry
// is stale.
func refused(err error) bool {
	return errors.Is(err, windows.WSAECONNREFUSED) || errors.Is(err, syscall.ECONNREFUSED)
}
