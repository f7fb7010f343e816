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

// soExclusiveAddrUse is SO_EXCLUSIVEADDRUSE (winsock2.h: ~SO_REUSEADDR),
// which x/sys does not name.
const soExclusiveAddrUse = ^windows.SO_REUSEADDR

// exclusiveAddr keeps the proxy's port its own: without
// SO_EXCLUSIVEADDRUSE, another process that asks for SO_REUSEADDR may bind
// the same address and take connections meant for the proxy.
func exclusiveAddr(_, _ string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = windows.SetsockoptInt(windows.Handle(fd), windows.SOL_SOCKET, soExclusiveAddrUse, 1)
	})
	if err != nil {
		return err
	}
	return serr
}

func listenSocket(string) (net.Listener, error)          { return nil, ErrUnsupported }
func dialSocket(string, time.Duration) (net.Conn, error) { return nil, ErrUnsupported }
func peerUID(net.Conn) (int, error)                      { return -1, ErrUnsupported }
func me() int                                            { return -1 }

// refused says a dial found no one listening on a proxy's port: the entry
// is stale.
func refused(err error) bool {
	return errors.Is(err, windows.WSAECONNREFUSED) || errors.Is(err, syscall.ECONNREFUSED)
}
