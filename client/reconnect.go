package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/mcpsh/mcpsh/internal/units"
)

// maxRestarts bounds how often one session brings a dead server back, so a
// server that keeps crashing does not loop for ever. Only restarts that
// worked count: a server still coming up (connection refused) uses none.
const maxRestarts = 5

// dialTimeout bounds one attempt at reconnecting, within the call's budget.
const dialTimeout = 30 * time.Second

// ensureConnected brings the session back if the server went away (it exited,
// its connection closed, or an HTTP server forgot the session), trying until
// deadline with backoff. No call is in flight, so nothing is replayed by it.
func (s *Session) ensureConnected(ctx context.Context, deadline time.Time) error {
	if c := s.current(); c.gone() || c.tap.sessionGone.Load() {
		return s.reconnect(ctx, c, deadline)
	}
	return nil
}

// reconnect replaces a dead connection: restart the stdio server or open a new
// HTTP session, then list the tools again, so a retried call is judged against
// what the new server declares. A server that is restarting may refuse
// connections for a while: attempts back off until deadline.
func (s *Session) reconnect(ctx context.Context, old *connection, deadline time.Time) error {
	s.reconnectMu.Lock()
	defer s.reconnectMu.Unlock()
	if s.current() != old {
		return nil // another caller already reconnected
	}
	if s.restarts >= maxRestarts {
		return fmt.Errorf("the server went away %d times this session; mcpsh will not bring it back again", s.restarts+1)
	}
	why := "the session ended"
	if old.tap.sessionGone.Load() {
		why = "the server no longer knows the session (HTTP 404)"
	}
	if old.proc != nil {
		old.proc.waitExit(0)
		if st := old.proc.exitStatus(); st != "" {
			why = "the server " + st
		}
	}
	old.close()
	c, tries, err := s.redial(ctx, deadline)
	if err != nil {
		return fmt.Errorf("reconnecting after %s failed (%s): %w", why, units.Plural(tries, "attempt"), err)
	}
	s.restarts++
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
	verb := "reconnected"
	if s.Target.Kind == KindStdio {
		verb = "restarted the server"
	}
	s.emit(Event{Kind: EventReconnected, Text: fmt.Sprintf("%s (%d of at most %d): %s", verb, s.restarts, maxRestarts, why)})
	if _, err := s.ListTools(ctx); err != nil {
		return fmt.Errorf("listing tools after reconnecting: %w", err)
	}
	return nil
}

// redial connects again, backing off between attempts until deadline.
func (s *Session) redial(ctx context.Context, deadline time.Time) (*connection, int, error) {
	bo := newBackoff(time.Until(deadline))
	bo.MaxInterval = 2 * time.Second
	for n := 1; ; n++ {
		dctx, cancel := context.WithTimeout(ctx, min(dialTimeout, max(time.Until(deadline), time.Second)))
		c, err := s.dial(dctx)
		cancel()
		if err == nil {
			return c, n, nil
		}
		wait := bo.NextBackOff()
		if ctx.Err() != nil || wait == backoff.Stop || time.Now().Add(wait).After(deadline) {
			return nil, n, err
		}
		s.warn(fmt.Sprintf("reconnecting: attempt %d failed (%s); trying again in %.1fs", n, oneLine(err), wait.Seconds()))
		select {
		case <-ctx.Done():
			return nil, n, errors.Join(ctx.Err(), err)
		case <-time.After(wait):
		}
	}
}

// Restarts says how many times this session has brought the server back.
func (s *Session) Restarts() int {
	s.reconnectMu.Lock()
	defer s.reconnectMu.Unlock()
	return s.restarts
}

// lastWords is the death notice of a stdio server, on one line, for a failure message.
func (s *Session) lastWords(c *connection) string {
	if c.proc == nil {
		return ""
	}
	c.proc.waitExit(100e6)
	return oneLine(errors.New(s.deathNotice(c.proc)))
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
