package client

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// Ping sends a ping and returns the round-trip time.
func (s *Session) Ping(ctx context.Context) (time.Duration, error) {
	t0 := time.Now()
	if err := s.current().cs.Ping(ctx, nil); err != nil {
		return 0, fmt.Errorf("ping: %s", s.Target.Redact(termtext.Line(err.Error())))
	}
	return time.Since(t0), nil
}
