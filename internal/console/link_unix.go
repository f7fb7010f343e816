//go:build unix

package console

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"syscall"
	"time"
)

// systemLink: on Unix the link is a Unix domain socket, and the kernel
// says who is at the other end.
const systemLink = linkSocket

// exclusiveAddr: Unix binds no second socket to a port in use unless both
// asked for it (SO_REUSEPORT), and Go's listener does not.
var exclusiveAddr func(network, address string, c syscall.RawConn) error

// listenSocket serves the link on a Unix domain socket at path, readable
// and writable by the user alone. The folder is the user's alone already
// (EnsureDir): no one else can reach the socket between its making and
// the chmod.
func listenSocket(path string) (net.Listener, error) {
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("the console socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("the console socket: %w", err)
	}
	return l, nil
}

// dialSocket connects to a proxy's socket.
func dialSocket(path string, timeout time.Duration) (net.Conn, error) {
	return net.DialTimeout("unix", path, timeout)
}

// peerUID is the user id of the process at the other end of c, as the
// kernel says it.
func peerUID(c net.Conn) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1, fmt.Errorf("not a Unix domain socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid, uerr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { uid, uerr = peerUIDOf(int(fd)) }); err != nil {
		return -1, err
	}
	return uid, uerr
}

// me is this process's user id, which a peer must have.
func me() int { return os.Getuid() }

// refused says a dial found no one listening: the socket is gone, or its
// proxy is (the entry is stale).
func refused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, fs.ErrNotExist)
}
