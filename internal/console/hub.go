package console

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// WriteTimeout is how long a console may take a line before the proxy
// hangs up on it: a console that reads nothing for that long counts as
// gone, and its questions fall to the host.
const WriteTimeout = 10 * time.Second

// HubOptions configure a proxy's side of the link.
type HubOptions struct {
	// Dir is the folder proxies register in (Dir).
	Dir string
	// Server is the server the proxy fronts (Protocol may come later).
	Server Server
	// Mcpsh is mcpsh's version.
	Mcpsh string
	// Args is how a call's arguments are shown: as the session log keeps
	// them. Nil: redacted (sessionlog.ArgsRedact). Nil results (a log that
	// keeps none) are redacted too: a person approves what they see.
	Args func(map[string]any) any
	// QueueLimit bounds each console's queue of call events; zero takes
	// QueueLimit.
	QueueLimit int
	// Warn hears the link's own troubles (a console that broke the
	// protocol); nil: none.
	Warn func(string)

	// tokenLink serves the token link whatever the system: tests run it on
	// every system, as Windows does.
	tokenLink bool
}

// Hub is a proxy's side of the link: it registers the proxy, serves the
// consoles that connect, tells them the proxy's calls (Observe) and asks
// them about those that need a person (Ask, Present: a proxy.Asker).
type Hub struct {
	opts HubOptions
	ln   net.Listener
	// token is what a console presents in its hello on the token link;
	// empty on a Unix socket, where the kernel names the peer instead.
	token string
	done  chan struct{}
	wg    sync.WaitGroup

	// attached counts the consoles that said hello: with none, events are
	// not even made.
	attached atomic.Int32

	mu        sync.Mutex
	info      Info
	consoles  map[*peer]bool
	questions map[string]*pending
	nextQ     uint64
	closed    bool
}

// peer is one connected console.
type peer struct {
	c     net.Conn
	out   *outbox
	hello bool
}

// Start registers a proxy in o.Dir and serves the link there until Close.
func Start(o HubOptions) (*Hub, error) {
	if o.QueueLimit <= 0 {
		o.QueueLimit = QueueLimit
	}
	if o.Args == nil {
		o.Args = sessionlog.ArgsRedact.Apply
	}
	kind := systemLink
	if o.tokenLink {
		kind = linkToken
	}
	if kind == linkNone {
		return nil, ErrUnsupported
	}
	if err := EnsureDir(o.Dir); err != nil {
		return nil, err
	}
	// Entries of proxies that were killed go first, so the folder does not
	// grow with every crash.
	_, _ = List(o.Dir)
	id := newID()
	h := &Hub{opts: o, done: make(chan struct{}), consoles: map[*peer]bool{}, questions: map[string]*pending{},
		info: Info{ID: id, PID: os.Getpid(), Started: time.Now().UTC(), Mcpsh: o.Mcpsh, Server: o.Server}}
	var err error
	if kind == linkToken {
		if h.token, err = newToken(); err != nil {
			return nil, err
		}
		h.ln, err = listenToken()
		if err == nil {
			h.info.Addr = h.ln.Addr().String()
		}
	} else {
		h.ln, err = listenSocket(socketPath(o.Dir, id))
		h.info.Socket = socketPath(o.Dir, id)
	}
	if err != nil {
		return nil, err
	}
	ln := h.ln
	if err := writeEntry(o.Dir, entry{Info: h.info, Token: h.token}); err != nil {
		ln.Close()
		os.Remove(socketPath(o.Dir, id))
		return nil, err
	}
	h.wg.Add(1)
	go h.accept()
	return h, nil
}

// Info is the proxy as registered.
func (h *Hub) Info() Info {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.info
}

// Present says whether a console is attached (proxy.Presence).
func (h *Hub) Present() bool { return h.attached.Load() > 0 }

// Close ends the link: consoles are hung up on (an open question falls to
// the host), the entry and the socket are removed.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	close(h.done)
	var cs []*peer
	for c := range h.consoles {
		cs = append(cs, c)
	}
	h.mu.Unlock()
	err := h.ln.Close()
	for _, c := range cs {
		h.drop(c)
	}
	h.wg.Wait()
	removeEntry(h.opts.Dir, h.info.ID)
	return err
}

func (h *Hub) accept() {
	defer h.wg.Done()
	for {
		c, err := h.ln.Accept()
		if err != nil {
			select {
			case <-h.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			time.Sleep(50 * time.Millisecond) // out of file descriptors, say: not a busy loop
			continue
		}
		if h.token == "" {
			if err := samePeer(c); err != nil {
				// Another user, or a check the system cannot make: not a word.
				c.Close()
				continue
			}
		}
		p := &peer{c: c, out: newOutbox(h.opts.QueueLimit)}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			c.Close()
			return
		}
		h.consoles[p] = true
		h.mu.Unlock()
		h.wg.Add(2)
		go h.write(p)
		go h.read(p)
	}
}

func ptr[T any](v T) *T { return &v }

// write sends p what waits for it, never past WriteTimeout a batch.
func (h *Hub) write(p *peer) {
	defer h.wg.Done()
	w := bufio.NewWriter(p.c)
	for {
		items, dropped, ok := p.out.take(h.done)
		if !ok {
			return
		}
		_ = p.c.SetWriteDeadline(time.Now().Add(WriteTimeout))
		for _, it := range items {
			w.Write(it.bytes())
		}
		if dropped > 0 {
			w.Write(newOut(&Message{Type: TypeDropped, Dropped: dropped}).bytes())
		}
		if err := w.Flush(); err != nil {
			h.drop(p)
			return
		}
	}
}

// read takes p's hello and answers.
func (h *Hub) read(p *peer) {
	defer h.wg.Done()
	defer h.drop(p)
	sc := bufio.NewScanner(p.c)
	sc.Buffer(make([]byte, 4096), 64<<10)
	if h.token != "" {
		m, ok := h.admit(p, sc)
		if !ok || !h.take(p, m) {
			return
		}
	}
	for sc.Scan() {
		var m Message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			h.refuse(p, "not a message of mcpsh's console protocol")
			return
		}
		if !h.take(p, m) {
			return
		}
	}
}

// admit reads p's first line on the token link: a hello with the proxy's
// token, within helloTimeout. Anything else (no token, a wrong one, an
// answer first, not a message) and p is hung up on, with nothing read
// beyond that line and nothing said: who has not the token learns
// nothing, not even the protocol's version.
func (h *Hub) admit(p *peer, sc *bufio.Scanner) (Message, bool) {
	_ = p.c.SetReadDeadline(time.Now().Add(helloTimeout))
	if !sc.Scan() {
		return Message{}, false
	}
	var m Message
	if json.Unmarshal(sc.Bytes(), &m) != nil || m.Type != TypeHello || !tokenMatches(h.token, m.Token) {
		return Message{}, false
	}
	_ = p.c.SetReadDeadline(time.Time{})
	return m, true
}

// take acts on one of p's messages; false: p is to be hung up on.
func (h *Hub) take(p *peer, m Message) bool {
	switch m.Type {
	case TypeHello:
		if m.Version != Version {
			h.refuse(p, fmt.Sprintf("this proxy speaks version %d of the console protocol, not %d: use the same mcpsh for both", Version, m.Version))
			return false
		}
		h.attach(p)
	case TypeAnswer:
		if !p.hello || m.Answer == nil {
			h.refuse(p, "an answer before hello, or without one")
			return false
		}
		h.answer(p, *m.Answer)
	}
	// Other types are a later version's: a console of this one does not
	// send them, and hello settled the version.
	return true
}

// refuse tells p why it is hung up on.
func (h *Hub) refuse(p *peer, why string) {
	if h.opts.Warn != nil {
		h.opts.Warn("a console was disconnected: " + termtext.Line(why))
	}
	_ = p.c.SetWriteDeadline(time.Now().Add(time.Second))
	b, _ := json.Marshal(Message{Type: TypeError, Error: why})
	p.c.Write(append(b, '\n'))
}

// attach counts p as a console from its hello on, answers it with the
// proxy's, and asks it the questions that are open.
func (h *Hub) attach(p *peer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if p.hello || !h.consoles[p] {
		return
	}
	p.hello = true
	h.attached.Add(1)
	// The proxy's hello says the console is attached: a call made after
	// the console read it asks the console.
	p.out.push(newOut(&Message{Type: TypeHello, Version: Version, Proxy: ptr(h.info)}), false)
	for _, q := range h.questions {
		p.out.push(q.msg, false)
	}
}

// drop hangs up on p; the questions open fall to the host when no
// console is left.
func (h *Hub) drop(p *peer) {
	h.mu.Lock()
	if !h.consoles[p] {
		h.mu.Unlock()
		return
	}
	delete(h.consoles, p)
	if p.hello {
		h.attached.Add(-1)
	}
	if h.attached.Load() == 0 {
		for id, q := range h.questions {
			delete(h.questions, id)
			q.done <- verdict{gone: true}
		}
	}
	h.mu.Unlock()
	p.out.close()
	p.c.Close()
}

// broadcast queues m for every attached console.
func (h *Hub) broadcast(m *Message, droppable bool) {
	o := newOut(m)
	h.mu.Lock()
	for p := range h.consoles {
		if p.hello {
			p.out.push(o, droppable)
		}
	}
	h.mu.Unlock()
}

// setHost records the host once it introduced itself: the entry is
// written again, and the consoles told.
func (h *Hub) setHost(host client.Peer, protocol string) {
	h.mu.Lock()
	h.info.Host = &host
	if protocol != "" {
		h.info.Server.Protocol = protocol
	}
	info := h.info
	var err error
	if !h.closed {
		// Under the lock, so that Close cannot remove the entry first.
		err = writeEntry(h.opts.Dir, entry{Info: info, Token: h.token})
	}
	h.mu.Unlock()
	if err != nil && h.opts.Warn != nil {
		h.opts.Warn(err.Error())
	}
	h.broadcast(&Message{Type: TypeProxy, Proxy: &info}, false)
}
