package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
)

// The commands here are the only code in ui that does I/O. They run on Bubble
// Tea's goroutines and never touch the model: they return messages.

// connectCmd starts or reaches the server within ctx's deadline. A session
// that comes up after ctx was cancelled (the user quit, or connected again)
// is closed here: nobody will receive it. done is closed when it returns.
func connectCmd(ctx context.Context, id int, t client.Target, opts *client.Options, done chan struct{}) tea.Cmd {
	return func() tea.Msg {
		defer close(done)
		s, err := client.Connect(ctx, t, opts)
		if err != nil {
			return connectedMsg{id: id, err: err}
		}
		l, err := s.ListTools(ctx)
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			s.Close()
			return connectedMsg{id: id, err: err}
		}
		return connectedMsg{id: id, session: s, listing: l}
	}
}

func listCmd(ctx context.Context, id int, s *client.Session) tea.Cmd {
	return func() tea.Msg {
		l, err := s.ListTools(ctx)
		return listedMsg{id: id, listing: l, err: err}
	}
}

// waitEvent delivers the next server event; Update re-arms it after each one,
// the pattern of bubbletea's realtime example.
func waitEvent(events <-chan client.Event) tea.Cmd {
	return func() tea.Msg {
		e, ok := <-events
		if !ok {
			return eventsClosedMsg{}
		}
		return eventMsg{e}
	}
}

func setLogLevelCmd(ctx context.Context, s *client.Session) tea.Cmd {
	return func() tea.Msg {
		return logLevelSetMsg{err: s.SetLogLevel(ctx, "info")}
	}
}

// callRun is the plumbing of one call in flight: its progress and retry notices
// go into updates from the client's goroutines, without blocking them, and done
// closes when the call has ended.
type callRun struct {
	id      int
	updates chan tea.Msg
	done    chan struct{}
}

func newCallRun(id int) *callRun {
	return &callRun{id: id, updates: make(chan tea.Msg, 64), done: make(chan struct{})}
}

// send offers a message without ever blocking the client: if the UI has fallen
// behind by a whole buffer, a progress update is dropped; a later one replaces it.
func (r *callRun) send(m tea.Msg) {
	select {
	case r.updates <- m:
	default:
	}
}

// doCallCmd runs the call. Session.Do does the validation, policy, retries and
// logging; its callbacks only feed r.updates.
func doCallCmd(ctx context.Context, s *client.Session, c *client.Call, r *callRun) tea.Cmd {
	c.OnProgress = func(p client.Progress) { r.send(progressMsg{id: r.id, progress: p}) }
	c.OnRetry = func(n client.RetryNotice) { r.send(retryMsg{id: r.id, notice: n}) }
	return func() tea.Msg {
		defer close(r.done)
		o, err := s.Do(ctx, c)
		return callDoneMsg{id: r.id, outcome: o, err: err}
	}
}

// waitCallUpdate delivers the next progress or retry notice of a call.
func waitCallUpdate(r *callRun) tea.Cmd {
	return func() tea.Msg {
		select {
		case m := <-r.updates:
			return m
		case <-r.done:
			return callUpdatesDoneMsg{id: r.id}
		}
	}
}
