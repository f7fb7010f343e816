package ui

import (
	"context"
	"sync/atomic"
	"time"

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

// waitEvent delivers the session's next event; Update re-arms it after each
// one, the pattern of bubbletea's realtime example.
func waitEvent(s *client.Session) tea.Cmd {
	events, done := s.Events(), s.Done()
	return func() tea.Msg {
		select {
		case e := <-events:
			return sessionEventMsg{eventMsg: eventMsg{e}, from: s}
		case <-done:
			// A session replaced by R, or closed on quit: the wait ends
			// rather than hold the session and a goroutine for ever.
			return eventsClosedMsg{}
		}
	}
}

// closeSessionCmd closes a session the view has replaced (R) in a command:
// closing waits for a stdio server's process group to end. The session is
// kept in m.retired until it has closed, for Close.
func (s *serverState) closeSessionCmd(old *client.Session) tea.Cmd {
	if old == nil {
		return nil
	}
	live := s.retired[:0]
	for _, r := range s.retired {
		select {
		case <-r.Done():
		default:
			live = append(live, r)
		}
	}
	s.retired = append(live, old)
	return func() tea.Msg {
		old.Close()
		return nil
	}
}

func setLogLevelCmd(ctx context.Context, s *client.Session) tea.Cmd {
	return func() tea.Msg {
		return logLevelSetMsg{err: s.SetLogLevel(ctx, "info")}
	}
}

// callRun is the plumbing of one call in flight: its progress, retry notices
// and task statuses go into updates from the client's goroutines, without blocking them, and done
// closes when the call has ended.
type callRun struct {
	id      int
	updates chan tea.Msg
	done    chan struct{}
	// begun is set once the command runs: Close waits only for a call
	// that has begun (done closes only then).
	begun atomic.Bool
}

func newCallRun(id int) *callRun {
	return &callRun{id: id, updates: make(chan tea.Msg, 64), done: make(chan struct{})}
}

// send offers a message without ever blocking the client: if the UI has fallen
// behind by a whole buffer, an update is dropped; a later one replaces it, and
// the outcome carries the task as last seen.
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
	// OnTask runs on the goroutine that runs Do, which must go on following
	// the task: it hands the status over like any other update.
	c.OnTask = func(t client.Task) { r.send(taskMsg{id: r.id, task: t}) }
	return func() tea.Msg {
		r.begun.Store(true)
		defer close(r.done)
		o, err := s.Do(ctx, c)
		return callDoneMsg{id: r.id, outcome: o, err: err}
	}
}

// waitCallUpdate delivers the next progress, retry notice or task status of a call.
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

func listResourcesCmd(ctx context.Context, id int, s *client.Session) tea.Cmd {
	return func() tea.Msg {
		l, err := s.ListResources(ctx)
		return resourcesListedMsg{id: id, listing: l, err: err}
	}
}

func listPromptsCmd(ctx context.Context, id int, s *client.Session) tea.Cmd {
	return func() tea.Msg {
		l, err := s.ListPrompts(ctx)
		return promptsListedMsg{id: id, listing: l, err: err}
	}
}

func readResourceCmd(ctx context.Context, id int, s *client.Session, uri string) tea.Cmd {
	return func() tea.Msg {
		c, err := s.ReadResource(ctx, uri)
		return resourceReadMsg{id: id, uri: uri, contents: c, err: err}
	}
}

func subscribeCmd(ctx context.Context, id int, s *client.Session, uri string, on bool) tea.Cmd {
	return func() tea.Msg {
		var err error
		if on {
			err = s.Subscribe(ctx, uri)
		} else {
			err = s.Unsubscribe(ctx, uri)
		}
		return subscribedMsg{id: id, uri: uri, on: on, err: err}
	}
}

func getPromptCmd(ctx context.Context, id int, s *client.Session, p *client.Prompt, args map[string]string) tea.Cmd {
	return func() tea.Msg {
		r, err := s.GetPrompt(ctx, p, args)
		return promptGotMsg{id: id, result: r, err: err}
	}
}

// completeDelay is how long typing must pause before a completion request
// goes out: one per word rather than one per key.
const completeDelay = 150 * time.Millisecond

// completeAfter schedules the completion request id; Update sends it only if
// no newer one was scheduled meanwhile.
func completeAfter(id int) tea.Cmd {
	return tea.Tick(completeDelay, func(time.Time) tea.Msg { return completeDueMsg{id: id} })
}

func completeCmd(ctx context.Context, id int, s *client.Session, ref client.CompletionRef, arg, value string, given map[string]string) tea.Cmd {
	return func() tea.Msg {
		c, err := s.Complete(ctx, ref, arg, value, given)
		return completedMsg{id: id, completion: c, err: err}
	}
}

// openURLCmd starts the user's browser on url. Only ever run on the user's key.
func openURLCmd(ctx context.Context, id int, open func(context.Context, string) error, url string) tea.Cmd {
	return func() tea.Msg {
		return openedMsg{id: id, err: open(ctx, url)}
	}
}

// waitInbox delivers the next thing a client callback handed the model: a
// server's request for the user, or an OAuth notice. Update re-arms it after
// each one, as it does waitEvent.
func waitInbox(b *inbox) tea.Cmd {
	return func() tea.Msg {
		select {
		case a := <-b.asks:
			return askMsg{ask: a}
		case n := <-b.notices:
			return noticeMsg(n)
		case <-b.done:
			return nil
		case <-b.ctxDone:
			return nil
		}
	}
}

// watchAsk ends when the request is answered or withdrawn, and says so when
// it was withdrawn, so the dialog closes.
func watchAsk(a *serverAsk) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-a.ctx.Done():
			return askGoneMsg{id: a.id}
		case <-a.answered:
			return nil
		}
	}
}
