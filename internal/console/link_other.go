//go:build !unix && !windows

package console

import (
	"net"
	"syscall"
	"time"
)

// systemLink: the link is not supported here (no peer credentials, and no
// folder that is known to be the user's alone for the token link): a
// proxy runs without it, and mcpsh watch says so.
const systemLink = linkNone

var exclusiveAddr func(network, address string, c syscall.RawConn) error

func listenSocket(string) (net.Listener, error)          { return nil, ErrUnsupported }
func dialSocket(string, time.Duration) (net.Conn, error) { return nil, ErrUnsupported }
func peerUID(net.Conn) (int, error)                      { return -1, ErrUnsupported }
func me() int                                            { return -1 }

func refused(error) bool { return false }
