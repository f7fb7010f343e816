package watch

import (
	"slices"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/mcpsh/mcpsh/policy"
)

// callsMax bounds the calls the view keeps, of every proxy together: a
// proxy may make a thousand calls a second, and the oldest go first.
const callsMax = 2000

// proxy is one running proxy as the view knows it.
type proxy struct {
	id   string
	info console.Info
	// counts are its calls so far by class, as they started.
	counts map[policy.Class]int
	// dropped counts the call events it dropped because this console fell
	// behind.
	dropped int
	// failing: its last call that ended failed (the server, the transport
	// or the protocol), which a tool error is not.
	failing bool
}

// call is one call of a proxy's, as its events told it.
type call struct {
	proxy *proxy
	id    uint64
	time  time.Time
	tool  string
	title string
	class policy.Class
	// facets are the tool's marks as policy's words (console.CallEvent).
	facets    []string
	openWorld bool
	host      *client.Peer
	args      any
	// verdict is policy's decision before anyone was asked; final is the
	// decision once it was (decided).
	verdict, final policy.Verdict
	decided        bool
	approvedBy     policy.Approver
	reason, rule   string
	basis          []policy.Basis
	// ended, with how.
	ended      bool
	status     client.Status
	durationMS float64
	attempts   int
	err        string
	// waiting: a question about it is open.
	waiting bool
}

// callKey finds a call by its proxy and number.
type callKey struct {
	proxy string
	id    uint64
}

// question is a call waiting for a person.
type question struct {
	proxy *proxy
	q     *console.Question
	// args are the arguments' lines for argsW cells, drawn by the layout.
	args  []string
	argsW int
}

// state is what the view knows: the proxies, their calls (oldest first)
// and the questions open, in the order they came.
type state struct {
	proxies   []*proxy
	byID      map[string]*proxy
	calls     []*call
	byKey     map[callKey]*call
	questions []*question
}

func newState() state {
	return state{byID: map[string]*proxy{}, byKey: map[callKey]*call{}}
}

// notice is what the view says once about something that happened, until
// the next key.
type notice struct {
	text string
	warn bool
}

// apply takes one event in; it returns a notice when one is due, and the
// question the event closed, if any.
func (s *state) apply(e console.Event) (closed *question, why string) {
	switch e.Kind {
	case console.ProxyAppeared, console.ProxyUpdated:
		if e.Info == nil {
			return nil, ""
		}
		p := s.byID[e.Proxy]
		if p == nil {
			p = &proxy{id: e.Proxy, counts: map[policy.Class]int{}}
			s.byID[e.Proxy] = p
			s.proxies = append(s.proxies, p)
			slices.SortStableFunc(s.proxies, func(a, b *proxy) int { return a.info.Started.Compare(b.info.Started) })
		}
		p.info = *e.Info
		slices.SortStableFunc(s.proxies, func(a, b *proxy) int { return a.info.Started.Compare(b.info.Started) })
	case console.ProxyEnded:
		p := s.byID[e.Proxy]
		if p == nil {
			return nil, ""
		}
		delete(s.byID, e.Proxy)
		s.proxies = slices.DeleteFunc(s.proxies, func(x *proxy) bool { return x == p })
		s.calls = slices.DeleteFunc(s.calls, func(c *call) bool {
			if c.proxy == p {
				delete(s.byKey, callKey{p.id, c.id})
				return true
			}
			return false
		})
		for _, q := range s.questions {
			if q.proxy == p {
				closed = q
				why = "the proxy ended: its question fell to the host, or was refused"
			}
		}
		s.questions = slices.DeleteFunc(s.questions, func(q *question) bool { return q.proxy == p })
	case console.EventsDropped:
		if p := s.byID[e.Proxy]; p != nil {
			p.dropped += e.Dropped
		}
	case console.QuestionAsked:
		p := s.byID[e.Proxy]
		if p == nil || e.Question == nil {
			return nil, ""
		}
		for _, q := range s.questions {
			if q.proxy == p && q.q.ID == e.Question.ID {
				return nil, "" // asked again after a reconnect: one dialog
			}
		}
		s.questions = append(s.questions, &question{proxy: p, q: e.Question})
		if c := s.byKey[callKey{p.id, e.Question.Call}]; c != nil {
			c.waiting = true
		}
	case console.QuestionClosed:
		if e.Closed == nil {
			return nil, ""
		}
		i := slices.IndexFunc(s.questions, func(q *question) bool { return q.proxy.id == e.Proxy && q.q.ID == e.Closed.Question })
		if i < 0 {
			return nil, ""
		}
		closed = s.questions[i]
		s.questions = slices.Delete(s.questions, i, i+1)
		if c := s.byKey[callKey{e.Proxy, closed.q.Call}]; c != nil {
			c.waiting = false
		}
	default:
		if e.Call != nil {
			s.applyCall(e.Proxy, e.Call)
		}
	}
	return closed, why
}

// applyCall takes a call event in. A call whose start was dropped still
// shows, with what its later events say.
func (s *state) applyCall(proxyID string, ce *console.CallEvent) {
	p := s.byID[proxyID]
	if p == nil {
		return
	}
	k := callKey{proxyID, ce.ID}
	c := s.byKey[k]
	if c == nil {
		c = &call{proxy: p, id: ce.ID, time: ce.Time, tool: ce.Tool}
		s.byKey[k] = c
		s.calls = append(s.calls, c)
		if len(s.calls) > callsMax {
			for _, old := range s.calls[:len(s.calls)-callsMax] {
				delete(s.byKey, callKey{old.proxy.id, old.id})
			}
			s.calls = slices.Delete(s.calls, 0, len(s.calls)-callsMax)
		}
	}
	switch ce.Event {
	case console.CallStarted:
		c.time, c.tool, c.title, c.class = ce.Time, ce.Tool, ce.Title, ce.Class
		c.facets, c.openWorld, c.host, c.args, c.verdict = ce.Facets, ce.OpenWorld, ce.Host, ce.Args, ce.Decision
		if ce.Class != "" {
			p.counts[ce.Class]++
		}
		for _, q := range s.questions {
			if q.proxy == p && q.q.Call == ce.ID {
				c.waiting = true
			}
		}
	case console.CallDecided:
		c.decided, c.final, c.approvedBy, c.reason, c.rule = true, ce.Decision, ce.ApprovedBy, ce.Reason, ce.Rule
		c.basis = ce.Basis
		c.openWorld = c.openWorld || ce.OpenWorld
		if c.tool == "" {
			c.tool = ce.Tool
		}
	case console.CallEnded:
		c.ended, c.status, c.durationMS, c.attempts, c.err = true, ce.Status, ce.DurationMS, ce.Attempts, ce.Error
		c.waiting = false
		if c.tool == "" {
			c.tool = ce.Tool
		}
		p.failing = ce.Status == client.StatusFailed
	}
}

// waitingFor counts the questions open for p.
func (s *state) waitingFor(p *proxy) int {
	n := 0
	for _, q := range s.questions {
		if q.proxy == p {
			n++
		}
	}
	return n
}
