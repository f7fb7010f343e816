package console

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// What a Watcher reports (Event.Kind).
const (
	ProxyAppeared  = "proxy-appeared"
	ProxyUpdated   = "proxy-updated"
	ProxyEnded     = "proxy-ended"
	CallEventKind  = "call-" // followed by CallEvent.Event: call-started, call-decided, call-ended
	QuestionAsked  = "question-asked"
	QuestionClosed = "question-closed"
	EventsDropped  = "dropped"
)

// Event is one thing a Watcher saw, from one proxy. Its text is the
// proxies' (and through them the servers' and hosts'): make it safe
// before showing it.
type Event struct {
	Kind  string    `json:"event"`
	Time  time.Time `json:"time"`
	Proxy string    `json:"proxy"`
	// Info is the proxy (appeared, updated; ended: as last known).
	Info     *Info      `json:"info,omitempty"`
	Call     *CallEvent `json:"call,omitempty"`
	Question *Question  `json:"question,omitempty"`
	Closed   *Closed    `json:"closed,omitempty"`
	// Dropped counts the call events the proxy dropped because this
	// console fell behind.
	Dropped int `json:"dropped,omitempty"`
	// Why a proxy ended, when the link said.
	Why string `json:"why,omitempty"`
}

// WatchOptions configure a Watcher.
type WatchOptions struct {
	// Poll is how often the folder is read for new proxies; zero: a second.
	Poll time.Duration
}

// Watcher follows every proxy registered in a folder: those there when it
// starts and those that come, until they end.
type Watcher struct {
	dir    string
	poll   time.Duration
	events chan Event
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once

	mu      sync.Mutex
	proxies map[string]*watched
}

// watched is one proxy the Watcher follows; conn is nil while it connects.
type watched struct {
	mu   sync.Mutex // held while writing
	conn net.Conn
	w    *bufio.Writer
}

// Watch starts following the proxies registered in dir.
func Watch(ctx context.Context, dir string, o WatchOptions) (*Watcher, error) {
	if err := EnsureDir(dir); err != nil {
		return nil, err
	}
	if systemLink == linkNone {
		return nil, ErrUnsupported
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	w := &Watcher{dir: dir, poll: o.Poll, events: make(chan Event, 64), proxies: map[string]*watched{}}
	w.ctx, w.cancel = context.WithCancel(ctx)
	w.wg.Add(1)
	go w.loop()
	return w, nil
}

// Events are what the Watcher sees, in order for each proxy. It is closed
// after Close. A reader that falls behind slows no proxy: each drops what
// it cannot send, and says how much.
func (w *Watcher) Events() <-chan Event { return w.events }

// Close stops following: every link is closed.
func (w *Watcher) Close() { w.once.Do(w.close) }

func (w *Watcher) close() {
	w.cancel()
	w.mu.Lock()
	for _, p := range w.proxies {
		p.mu.Lock()
		if p.conn != nil {
			p.conn.Close()
		}
		p.mu.Unlock()
	}
	w.mu.Unlock()
	w.wg.Wait()
	close(w.events)
}

// Answer answers a question of proxy's.
func (w *Watcher) Answer(proxy, question string, c Choice) error {
	switch c {
	case Run, Refuse, Allow:
	default:
		return fmt.Errorf("answer %q: want run, refuse or allow", c)
	}
	w.mu.Lock()
	p := w.proxies[proxy]
	w.mu.Unlock()
	if p == nil {
		return fmt.Errorf("proxy %s is not connected", proxy)
	}
	return p.send(Message{Type: TypeAnswer, Answer: &Answer{Question: question, Choice: c}})
}

func (p *watched) send(m Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == nil {
		return fmt.Errorf("the proxy is not connected yet")
	}
	_ = p.conn.SetWriteDeadline(time.Now().Add(WriteTimeout))
	p.w.Write(append(b, '\n'))
	return p.w.Flush()
}

func (w *Watcher) loop() {
	defer w.wg.Done()
	t := time.NewTicker(w.poll)
	defer t.Stop()
	for {
		w.scan()
		select {
		case <-w.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// scan connects to the proxies registered since the last look.
func (w *Watcher) scan() {
	entries, err := list(w.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		info := e.Info
		w.mu.Lock()
		known := w.proxies[info.ID] != nil
		p := &watched{}
		if !known {
			w.proxies[info.ID] = p
		}
		w.mu.Unlock()
		if !known {
			w.wg.Add(1)
			go w.follow(e, p)
		}
	}
}

// follow connects to one proxy and reports what it says until it ends.
func (w *Watcher) follow(e entry, p *watched) {
	info := e.Info
	defer w.wg.Done()
	defer func() {
		w.mu.Lock()
		delete(w.proxies, info.ID)
		w.mu.Unlock()
	}()
	c, err := w.dial(e)
	if err != nil {
		if refused(err) {
			Drop(w.dir, info) // a proxy that was killed, its process id since reused
		}
		return
	}
	p.mu.Lock()
	p.conn, p.w = c, bufio.NewWriter(c)
	p.mu.Unlock()
	if w.ctx.Err() != nil {
		c.Close()
		return
	}
	defer c.Close()
	if err := p.send(Message{Type: TypeHello, Version: Version, Token: e.Token}); err != nil {
		return
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	hello, err := readMessage(sc)
	switch {
	case err != nil:
		return
	case hello.Type == TypeError:
		// A proxy of another version says so.
		w.emit(Event{Kind: ProxyEnded, Proxy: info.ID, Info: &info, Why: hello.Error})
		return
	case hello.Type != TypeHello || hello.Proxy == nil:
		return
	case hello.Version != Version:
		w.emit(Event{Kind: ProxyEnded, Proxy: info.ID, Info: &info, Why: fmt.Sprintf("it speaks version %d of the console protocol, this console %d: use the same mcpsh for both", hello.Version, Version)})
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	// From here the proxy counts this console: it asks it first.
	last := *hello.Proxy
	last.ID = info.ID
	w.emit(Event{Kind: ProxyAppeared, Proxy: info.ID, Info: &last})
	why := ""
	for {
		m, err := readMessage(sc)
		if err != nil {
			if w.ctx.Err() != nil {
				return
			}
			if !errors.Is(err, errEOF) {
				why = err.Error()
			}
			break
		}
		e := Event{Proxy: info.ID}
		switch m.Type {
		case TypeProxy:
			if m.Proxy == nil {
				continue
			}
			last = *m.Proxy
			last.ID = info.ID
			e.Kind, e.Info = ProxyUpdated, &last
		case TypeCall:
			if m.Call == nil {
				continue
			}
			e.Kind, e.Call = CallEventKind+m.Call.Event, m.Call
		case TypeQuestion:
			if m.Question == nil {
				continue
			}
			e.Kind, e.Question = QuestionAsked, m.Question
		case TypeClosed:
			if m.Closed == nil {
				continue
			}
			e.Kind, e.Closed = QuestionClosed, m.Closed
		case TypeDropped:
			e.Kind, e.Dropped = EventsDropped, m.Dropped
		case TypeError:
			why = m.Error
			continue
		default:
			continue
		}
		if !w.emit(e) {
			return
		}
	}
	w.emit(Event{Kind: ProxyEnded, Proxy: info.ID, Info: &last, Why: why})
}

// dial connects to e's proxy as its entry says. On a Unix socket the
// kernel names the proxy's user, who must be this one; on the token link
// the entry was this user's to read, and the token in the hello is what
// the proxy checks.
func (w *Watcher) dial(e entry) (net.Conn, error) {
	if e.link(w.dir) == linkToken {
		return dialToken(e.Addr)
	}
	c, err := dialSocket(e.Socket, 2*time.Second)
	if err != nil {
		return nil, err
	}
	if err := samePeer(c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

var errEOF = errors.New("the link ended")

func readMessage(sc *bufio.Scanner) (Message, error) {
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return Message{}, fmt.Errorf("reading the link: %w", err)
		}
		return Message{}, errEOF
	}
	var m Message
	if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
		return Message{}, fmt.Errorf("the proxy sent a line that is not a message of the console protocol")
	}
	return m, nil
}

// emit hands e on, unless the Watcher is closing.
func (w *Watcher) emit(e Event) bool {
	e.Time = time.Now().UTC()
	select {
	case w.events <- e:
		return true
	case <-w.ctx.Done():
		return false
	}
}
