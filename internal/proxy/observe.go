package proxy

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// What a console watching the proxy hears (Options.Observe): the host as
// it introduced itself, and each call the host makes as it starts, as its
// decision is known (policy let it run, someone approved it, or it was
// refused) and as it ends. A call gets its number when it starts; the
// question a console is asked about it carries the same number
// (Question.Call).

// EventKind says what an Event reports.
type EventKind string

const (
	// EventHost: the host introduced itself and its upstream session
	// connected (Host, Protocol).
	EventHost EventKind = "host"
	// EventStarted: a call of the host's is on its way (Tool, Args,
	// Decision: policy's decision before anyone is asked).
	EventStarted EventKind = "started"
	// EventDecided: the decision is final: the call is about to be sent, or
	// it was refused (Outcome so far: Decision, ApprovedBy, Reason, Rule,
	// Basis).
	EventDecided EventKind = "decided"
	// EventEnded: the call ended (Outcome, or Err for arguments that were
	// never a call).
	EventEnded EventKind = "ended"
)

// Event is one thing a console hears. Observe runs on the call's path: it
// must return at once, and must not keep Outcome, Tool or Args past its
// return (the client may still be writing the outcome).
type Event struct {
	Kind EventKind
	Time time.Time
	// Call is the call's number in this proxy, from 1 (0 for EventHost).
	Call uint64
	// Host is the agent's host, as it introduced itself.
	Host client.Peer
	// Protocol is the upstream session's protocol version (EventHost).
	Protocol string
	// Tool, Args and Decision are the call as it starts (EventStarted).
	Tool     *client.Tool
	Args     map[string]any
	Decision policy.Decision
	// Outcome is the call's record (EventDecided, EventEnded).
	Outcome *client.Outcome
	// Err is why a call ended without an outcome (EventEnded).
	Err error
}

// observer numbers the host's calls and reports them. A call is known by
// its Call.Host, which prepare allocates for each call, so that the
// client's BeforeSend (one per session) tells which call is being sent.
type observer struct {
	fn   func(Event)
	next atomic.Uint64

	mu    sync.Mutex
	calls map[*client.Peer]*observed
}

type observed struct {
	id      uint64
	decided bool
}

// observe sets up Options.Observe: the session's BeforeSend reports the
// decision of a call about to be sent.
func (p *Proxy) observe() {
	if p.opts.Observe == nil {
		return
	}
	p.obs = &observer{fn: p.opts.Observe, calls: map[*client.Peer]*observed{}}
	prev := p.opts.Client.BeforeSend
	p.opts.Client.BeforeSend = func(o *client.Outcome) {
		if prev != nil {
			prev(o)
		}
		p.obs.decided(o)
	}
}

// host reports the host once its upstream session connected.
func (ob *observer) host(peer client.Peer, protocol string) {
	if ob == nil {
		return
	}
	ob.fn(Event{Kind: EventHost, Time: time.Now(), Host: peer, Protocol: protocol})
}

// start numbers c and reports it.
func (ob *observer) start(c *client.Call, up *client.Session) {
	if ob == nil || c.Host == nil {
		return
	}
	id := ob.next.Add(1)
	ob.mu.Lock()
	ob.calls[c.Host] = &observed{id: id}
	ob.mu.Unlock()
	ob.fn(Event{Kind: EventStarted, Time: time.Now(), Call: id, Host: *c.Host, Tool: c.Tool, Args: c.Args, Decision: up.Decide(c)})
}

// decided reports a call's decision the first time it is final: before
// its first send, or at its end when it was never sent.
func (ob *observer) decided(o *client.Outcome) {
	if ob == nil || o.Host == nil {
		return
	}
	ob.mu.Lock()
	c := ob.calls[o.Host]
	first := c != nil && !c.decided
	if first {
		c.decided = true
	}
	ob.mu.Unlock()
	if first {
		ob.fn(Event{Kind: EventDecided, Time: time.Now(), Call: c.id, Host: *o.Host, Outcome: o})
	}
}

// end reports the end of c, and forgets it.
func (ob *observer) end(c *client.Call, o *client.Outcome, err error) {
	if ob == nil || c.Host == nil {
		return
	}
	if o != nil {
		ob.decided(o)
	}
	ob.mu.Lock()
	x := ob.calls[c.Host]
	delete(ob.calls, c.Host)
	ob.mu.Unlock()
	if x != nil {
		ob.fn(Event{Kind: EventEnded, Time: time.Now(), Call: x.id, Host: *c.Host, Outcome: o, Err: err})
	}
}

// callOf is the number of the call made for host, 0 when calls are not
// observed.
func (ob *observer) callOf(host *client.Peer) uint64 {
	if ob == nil || host == nil {
		return 0
	}
	ob.mu.Lock()
	defer ob.mu.Unlock()
	if c := ob.calls[host]; c != nil {
		return c.id
	}
	return 0
}

// Presence is implemented by a Console that is not always there: a
// console link with no one attached is not asked, and does not make the
// host's calls interactive.
type Presence interface {
	Present() bool
}

// consoleHere says whether a console can be asked now.
func (p *Proxy) consoleHere() bool {
	c := p.opts.Console
	if c == nil {
		return false
	}
	if pr, ok := c.(Presence); ok {
		return pr.Present()
	}
	return true
}
