package ui

import (
	"context"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// A server may ask the user for something while a call runs: input
// (elicitation, a form or a URL to visit) or a completion written by a person
// (sampling). The client's callbacks for these block until they are answered,
// on the SDK's goroutines; they hand the request to the model through the
// inbox and wait for the answer on the request's own channel, or for the
// request's context to end (the server withdrew it, its call or the session
// ended), which closes the dialog. The model never blocks on them.

// serverAsk is one request waiting for the user.
type serverAsk struct {
	id int // given by the model when the request arrives
	// srv is the server that asks; nil for the one on screen.
	srv    *serverState
	ctx    context.Context
	elicit *client.ElicitRequest
	sample *client.SampleRequest
	// reply takes the one answer; it has room for it, so answering never blocks.
	reply chan askReply
	// answered is closed by the model once it answered, ending watchAsk.
	answered chan struct{}
}

type askReply struct {
	elicit *client.ElicitResponse
	sample *client.SampleResponse
	err    error
}

// inbox carries what client callbacks hand the model, from every server.
type inbox struct {
	asks    chan *serverAsk
	notices chan notice
	// done ends every wait: closed when the view has ended (close), or the
	// model's context's.
	done    chan struct{}
	ctxDone <-chan struct{}
	once    sync.Once
}

func newInbox(ctxDone <-chan struct{}) *inbox {
	return &inbox{asks: make(chan *serverAsk), notices: make(chan notice, 16), done: make(chan struct{}), ctxDone: ctxDone}
}

// notice is what a server's OAuth flow says.
type notice struct {
	text string
	srv  *serverState
}

// close ends the waits of requests nobody will answer now: the view is gone.
func (b *inbox) close() { b.once.Do(func() { close(b.done) }) }

// elicit is client.Options.Elicit, for the server on screen.
func (b *inbox) elicit(ctx context.Context, r *client.ElicitRequest) (*client.ElicitResponse, error) {
	return b.elicitFor(nil)(ctx, r)
}

// sample is client.Options.Sample, for the server on screen.
func (b *inbox) sample(ctx context.Context, r *client.SampleRequest) (*client.SampleResponse, error) {
	return b.sampleFor(nil)(ctx, r)
}

// elicitFor is client.Options.Elicit for server s's session.
func (b *inbox) elicitFor(s *serverState) func(context.Context, *client.ElicitRequest) (*client.ElicitResponse, error) {
	return func(ctx context.Context, r *client.ElicitRequest) (*client.ElicitResponse, error) {
		rep, err := b.ask(ctx, &serverAsk{srv: s, elicit: r})
		if err != nil {
			return nil, err
		}
		return rep.elicit, rep.err
	}
}

// sampleFor is client.Options.Sample for server s's session.
func (b *inbox) sampleFor(s *serverState) func(context.Context, *client.SampleRequest) (*client.SampleResponse, error) {
	return func(ctx context.Context, r *client.SampleRequest) (*client.SampleResponse, error) {
		rep, err := b.ask(ctx, &serverAsk{srv: s, sample: r})
		if err != nil {
			return nil, err
		}
		return rep.sample, rep.err
	}
}

func (b *inbox) ask(ctx context.Context, a *serverAsk) (askReply, error) {
	a.ctx, a.reply, a.answered = ctx, make(chan askReply, 1), make(chan struct{})
	select {
	case b.asks <- a:
	case <-ctx.Done():
		return askReply{}, ctx.Err()
	case <-b.done:
		return askReply{}, context.Canceled
	case <-b.ctxDone:
		return askReply{}, context.Canceled
	}
	select {
	case r := <-a.reply:
		return r, nil
	case <-ctx.Done():
		return askReply{}, ctx.Err()
	case <-b.done:
		return askReply{}, context.Canceled
	case <-b.ctxDone:
		return askReply{}, context.Canceled
	}
}

// notify is client.Auth.Notify: it must not block, so a notice that finds
// the inbox full is dropped (the OAuth flow says little, and says it again).
func (b *inbox) notify(text string) { b.notifier(nil)(text) }

// notifier is client.Auth.Notify for server s's logins.
func (b *inbox) notifier(s *serverState) func(string) {
	return func(text string) {
		select {
		case b.notices <- notice{text: text, srv: s}:
		default:
		}
	}
}

// onAsk queues a request that arrived at its server, or declines it at
// once when the server is muted or has as many waiting as it may
// (askqueue.go); the first in the queue is the dialog. A server that is not
// on screen takes the screen while it waits on the user, unless the one on
// screen waits too, or the user put its requests aside (followAsks).
func (s *serverState) onAsk(a *serverAsk) tea.Cmd {
	if a.ctx.Err() != nil {
		return nil // withdrawn before it reached the screen
	}
	if why := s.admit(); why != "" {
		s.refuse(a, why)
		return nil
	}
	s.refusing = "" // there was room: the next refusal is said again
	a.id = s.nextID()
	s.asks = append(s.asks, a)
	if len(s.asks) == 1 {
		return tea.Batch(s.cmd(watchAsk(a)), s.openAsk())
	}
	return s.cmd(watchAsk(a))
}

// openAsk builds the dialog for the first request in the queue, unless the
// user put the queue aside.
func (s *serverState) openAsk() tea.Cmd {
	s.setAsking(nil)
	if len(s.asks) == 0 {
		s.queueEmptied()
		return nil
	}
	if s.asksAside {
		return nil
	}
	a := s.asks[0]
	var d askDialog
	switch {
	case a.elicit != nil && a.elicit.Mode == "url":
		d = newURLDialog(a, s.openBrowser, s.nextID, s.cmd, s.st, s.keys)
	case a.elicit != nil:
		d = newElicitDialog(a, s.st, s.keys)
	default:
		d = newSampleDialog(a, s.st, s.keys)
	}
	s.setAsking(d)
	s.layout()
	return d.focus()
}

// answerAsk sends the answer to the first request and shows the next one.
func (s *serverState) answerAsk(r askReply) tea.Cmd {
	if len(s.asks) == 0 {
		return nil
	}
	a := s.asks[0]
	a.reply <- r
	close(a.answered)
	s.asks = s.asks[1:]
	return s.openAsk()
}

// onAskGone drops a request the server no longer waits for.
func (s *serverState) onAskGone(id int) tea.Cmd {
	for i, a := range s.asks {
		if a.id != id {
			continue
		}
		s.asks = append(s.asks[:i:i], s.asks[i+1:]...)
		if i > 0 {
			return nil
		}
		s.status = termtext.Line(askServer(a)) + " withdrew its request (its call ended or was cancelled)"
		return s.openAsk()
	}
	return nil
}

// askerName is how a request's dialog names the server that asks: as the
// user knows it (the client names it so: its configured name, or its
// command or URL), cut so the title keeps its room.
func askerName(server string) string { return termtext.Truncate(termtext.Line(server), askerNameMax) }

const askerNameMax = 40

func askServer(a *serverAsk) string {
	if a.elicit != nil {
		return a.elicit.Server
	}
	return a.sample.Server
}

// askDialog is the dialog of the request on screen: an elicitation's form,
// the URL to visit, a sampling request. It goes on the dialog stack in an
// askFrame, as the server's own dialog.
type askDialog interface {
	// key handles a key; it returns the answer once the user gave one.
	key(msg tea.KeyPressMsg) (*askReply, tea.Cmd)
	// update gives the dialog other messages (cursor blinks).
	update(msg tea.Msg) tea.Cmd
	focus() tea.Cmd
	setSize(width, height int)
	view() string
	bindings() []key.Binding
}

// askFrame puts a request's dialog on the stack, as its server's: the
// lines about the screen under it above the dialog, and the keys for the
// server's requests as a whole with its own.
type askFrame struct {
	s *serverState
	d askDialog
}

func (f *askFrame) id() string          { return dialogAsk }
func (f *askFrame) owner() *serverState { return f.s }
func (f *askFrame) view(h int) string   { return f.s.renderDialog(h) }
func (f *askFrame) layout()             {} // it lays itself out (setSize)

// key gives a key to the dialog, and sends the answer once the user gave one.
func (f *askFrame) key(msg tea.KeyPressMsg) tea.Cmd { return f.s.onDialogKey(msg) }

// update takes no message itself: the server gives its dialog what it does
// not handle (serverState.forwardToFocus).
func (f *askFrame) update(tea.Msg) (tea.Cmd, bool) { return nil, false }

// bindings are the dialog's answers, then the keys for the server's
// requests as a whole, then the dialog's other keys (its fields, scrolling).
func (f *askFrame) bindings() []key.Binding {
	d := f.d.bindings()
	n := min(3, len(d))
	return append(append(d[:n:n], f.s.askQueueBindings()...), d[n:]...)
}

// asking is the dialog of the server's request on screen, or nil.
func (s *serverState) asking() askDialog {
	if f, ok := s.dialogs.of(s, dialogAsk).(*askFrame); ok {
		return f.d
	}
	return nil
}

// setAsking puts d on the stack in place of the server's request's dialog;
// nil takes it down.
func (s *serverState) setAsking(d askDialog) {
	if f := s.dialogs.of(s, dialogAsk); f != nil {
		s.dialogs.remove(f)
	}
	if d != nil {
		s.dialogs.push(&askFrame{s: s, d: d})
	}
}
