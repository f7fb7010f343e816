package client

import (
	"context"
	"fmt"
	"strings"
)

// maxRestarts bounds how often one session brings a dead server back, so a
// server that crashes on start does not loop for ever.
const maxRestarts = 5

// ensureConnected brings the session back if the server went away between
// calls. No call is in flight, so nothing can be replayed by it.
func (s *Session) ensureConnected(ctx context.Context) error {
	if c := s.current(); c.gone() {
		return s.reconnect(ctx, c)
	}
	return nil
}

// reconnect replaces a dead connection: restart the stdio server or open a new
// HTTP session, then list the tools again, so a retried call is judged against
// what the new server declares.
func (s *Session) reconnect(ctx context.Context, old *connection) error {
	s.reconnectMu.Lock()
	defer s.reconnectMu.Unlock()
	if s.current() != old {
		return nil // another caller already reconnected
	}
	if s.restarts >= maxRestarts {
		return fmt.Errorf("the server went away %d times this session; mcpsh will not bring it back again", s.restarts)
	}
	s.restarts++
	why := "the session ended"
	if old.proc != nil {
		old.proc.waitExit(0)
		if st := old.proc.exitStatus(); st != "" {
			why = "the server " + st
		}
	}
	old.close()
	c, err := s.dial(ctx)
	if err != nil {
		return fmt.Errorf("reconnecting after %s: %w", why, err)
	}
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
	n := s.deathNotice(c.proc)
	return strings.Join(strings.Fields(n), " ")
}
