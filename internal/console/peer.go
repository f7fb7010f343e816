package console

import (
	"errors"
	"fmt"
	"net"
	"runtime"
)

// ErrUnsupported: the console link is not supported on this system yet.
var ErrUnsupported = errors.New("the console link (mcpsh watch) is not supported on " + runtime.GOOS + " yet")

// checkPeer accepts the other end of a connection only when it runs as
// this user: uid and err are what the kernel said of it.
func checkPeer(uid int, err error, want int) error {
	switch {
	case err != nil:
		return fmt.Errorf("cannot tell who is at the other end of the socket: %w", err)
	case uid != want:
		return fmt.Errorf("the other end of the socket runs as uid %d, not as this user (uid %d)", uid, want)
	}
	return nil
}

// samePeer checks c's other end.
func samePeer(c net.Conn) error {
	uid, err := peerUID(c)
	return checkPeer(uid, err, me())
}
