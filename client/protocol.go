package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Protocol versions mcpsh speaks (those of go-sdk v1.8.0), newest first.
var ProtocolVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

const (
	// ProtocolAuto asks for the newest version and falls back.
	ProtocolAuto = "auto"
	// LatestProtocol is the newest version mcpsh speaks.
	LatestProtocol = "2026-07-28"
	// fallbackProtocol is what a server that does not answer the 2026-07-28
	// probe gets: the newest version with the initialize handshake.
	fallbackProtocol = "2025-11-25"
)

// discoverProbe bounds the wait for a stdio server's answer to server/discover.
// go-sdk starts a 2026-07-28 handshake with that request; a server that does
// not know it should answer "method not found" (and go-sdk then falls back to
// initialize on the same connection), but some stdio servers ignore unknown
// methods, which would hang the handshake until its deadline, or exit on them
// (go-sdk issue #1177). Such a server is started again and asked with
// fallbackProtocol.
var discoverProbe = 3 * time.Second

// ValidateProtocol reports a --protocol value mcpsh cannot speak.
func ValidateProtocol(v string) error {
	if v == "" || v == ProtocolAuto || slices.Contains(ProtocolVersions, v) {
		return nil
	}
	return &UsageError{fmt.Sprintf("unknown protocol version %q: want auto or one of %s", v, strings.Join(ProtocolVersions, ", "))}
}

// discoverError is a handshake that failed while server/discover had no answer.
type discoverError struct{ err error }

func (e *discoverError) Error() string { return e.err.Error() }
func (e *discoverError) Unwrap() error { return e.err }

// dialFirst is the first connection of a session. With ProtocolAuto, a stdio
// server gets discoverProbe to answer the 2026-07-28 probe; one that hangs or
// exits on it is started again and asked with fallbackProtocol, which the
// session then keeps for its restarts. HTTP servers answer unknown methods
// with an error, on which go-sdk falls back by itself.
func (s *Session) dialFirst(ctx context.Context) (*connection, error) {
	if !s.auto || s.Target.Kind != KindStdio {
		return s.dial(ctx)
	}
	pctx, cancel := context.WithTimeout(ctx, discoverProbe)
	c, err := s.dial(pctx)
	cancel()
	var de *discoverError
	if err == nil || !errors.As(err, &de) || ctx.Err() != nil {
		return c, err
	}
	s.protocol = fallbackProtocol
	c, err = s.dial(ctx)
	if err == nil {
		// Said only once it is known: a server that dies at every start
		// gets its own error, not this.
		s.warn(fmt.Sprintf("the server did not take the %s handshake (server/discover went unanswered); it was started again and speaks %s",
			LatestProtocol, c.protocol()))
	}
	return c, err
}
