package client

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// Ping measures a round trip to the server with the cheapest request its
// protocol version has for that (PingMethod), and returns its time.
func (s *Session) Ping(ctx context.Context) (time.Duration, error) {
	c := s.current()
	method := pingMethod(c)
	t0 := time.Now()
	var err error
	if method == "ping" {
		err = c.cs.Ping(ctx, nil)
	} else {
		_, err = discover(ctx, c.cs)
	}
	if err != nil {
		return 0, fmt.Errorf("ping: %s", s.Target.Redact(termtext.Line(err.Error())))
	}
	return time.Since(t0), nil
}

// PingMethod is the request Ping sends on this session: "ping" up to
// 2025-11-25; at 2026-07-28, which has no ping (the TypeScript SDK 2.x
// answers it with "Method not found"), "server/discover", the request every
// server of that version answers, without state, side effects or
// paging, and whose answer no client caches.
func (s *Session) PingMethod() string { return pingMethod(s.current()) }

func pingMethod(c *connection) string {
	if c.enveloped() {
		return "server/discover"
	}
	return "ping"
}
