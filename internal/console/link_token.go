package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/netip"
	"time"
)

// The token link: where the kernel cannot say who is at the other end of a
// local socket (Windows), the proxy listens on loopback TCP, where any
// local process may connect, and takes only a console that presents the
// proxy's token in its hello. The token is in the proxy's entry, which
// only this user can read (the folder's permissions, or on Windows the
// ACL of the user's profile that %LOCALAPPDATA% inherits). It is chosen on
// Windows (link_windows.go); tests run it everywhere (HubOptions.tokenLink).

// tokenBytes is how much chance goes into a token.
const tokenBytes = 32

// helloTimeout is how long a connection on the token link has to present
// its token: one that has not by then is hung up on.
const helloTimeout = 5 * time.Second

// dialTokenTimeout bounds a console's connect. It is longer than the
// Unix socket's: Windows retries a connection refused on loopback for
// about two seconds before it says so, and a refusal is what tells a
// stale entry.
const dialTokenTimeout = 5 * time.Second

// newToken is a fresh token for a proxy's entry.
func newToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making the console token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// validToken says whether s has a token's shape, so that a short or empty
// token in an entry is never taken.
func validToken(s string) bool {
	if len(s) != 2*tokenBytes {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// tokenMatches compares a presented token with the proxy's in constant
// time.
func tokenMatches(want, got string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

// listenToken serves the token link on a loopback port the system picks,
// which no other socket may bind while the proxy listens (exclusiveAddr):
// one that did could take the consoles' connections, and their tokens.
func listenToken() (net.Listener, error) {
	lc := net.ListenConfig{Control: exclusiveAddr}
	l, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("the console's loopback port: %w", err)
	}
	return l, nil
}

// dialToken connects to a proxy's loopback address.
func dialToken(addr string) (net.Conn, error) {
	return net.DialTimeout("tcp", addr, dialTokenTimeout)
}

// loopbackAddr says whether addr is a loopback IP and a port, as a proxy
// writes it: never a name to look up, never another machine, so an entry
// cannot send a console, or the token, anywhere else.
func loopbackAddr(addr string) bool {
	ap, err := netip.ParseAddrPort(addr)
	return err == nil && ap.Addr().IsLoopback() && ap.Port() != 0
}
