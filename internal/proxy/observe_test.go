package proxy

import (
	"context"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// seen keeps what Options.Observe heard, copied as an observer must.
type seen struct {
	mu     sync.Mutex
	events []seenEvent
}

type seenEvent struct {
	kind       EventKind
	call       uint64
	host, tool string
	protocol   string
	verdict    policy.Verdict
	approvedBy policy.Approver
	status     client.Status
}

func (s *seen) observe(e Event) {
	x := seenEvent{kind: e.Kind, call: e.Call, host: e.Host.Name, protocol: e.Protocol}
	if e.Tool != nil {
		x.tool, x.verdict = e.Tool.Name, e.Decision.Verdict
	}
	if e.Outcome != nil {
		x.tool, x.verdict, x.approvedBy = e.Outcome.Tool, e.Outcome.Decision, e.Outcome.ApprovedBy
		if e.Kind == EventEnded {
			x.status = e.Outcome.Status
		}
	}
	s.mu.Lock()
	s.events = append(s.events, x)
	s.mu.Unlock()
}

func (s *seen) of(call uint64) []seenEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []seenEvent
	for _, e := range s.events {
		if e.call == call {
			out = append(out, e)
		}
	}
	return out
}

// console is an Asker that is there when present says so, and answers
// with ans, noting the questions it was asked.
type console struct {
	mu      sync.Mutex
	present bool
	ans     client.Answer
	asked   []*Question
}

func (c *console) Present() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.present }

func (c *console) Ask(_ context.Context, q *Question) (client.Answer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, q)
	return c.ans, c.present
}

// Each call is heard as it starts, as its decision is final and as it
// ends, under one number, which the console's question carries too; the
// host is heard once its upstream session connected.
func TestObserveHearsTheHostAndEachCall(t *testing.T) {
	t.Parallel()
	s := &seen{}
	con := &console{present: true, ans: client.Answer{Verdict: client.AnswerApproved, By: policy.ByConsole}}
	r := newRig(t, "proxy", func(o *Options) { o.Observe = s.observe; o.Console = con })
	cs := r.goHost("2025-11-25", nil)
	if res := callTool(t, cs, "read", nil); res.IsError {
		t.Fatal(textOf(res))
	}
	if res := callTool(t, cs, "wipe", nil); res.IsError || r.executions("wipe") != 1 {
		t.Fatalf("%s, executions %d", textOf(res), r.executions("wipe"))
	}
	host := s.of(0)
	if len(host) != 1 || host[0].kind != EventHost || host[0].host != "test-host" || host[0].protocol != "2025-11-25" {
		t.Fatalf("host events %+v", host)
	}
	read := s.of(1)
	want := []EventKind{EventStarted, EventDecided, EventEnded}
	if len(read) != 3 || read[0].kind != want[0] || read[1].kind != want[1] || read[2].kind != want[2] ||
		read[0].tool != "read" || read[1].verdict != policy.Run || read[2].status != client.StatusOK {
		t.Fatalf("call 1: %+v", read)
	}
	wipe := s.of(2)
	if len(wipe) != 3 || wipe[0].verdict != policy.Ask || wipe[1].verdict != policy.Run || wipe[1].approvedBy != policy.ByConsole || wipe[2].status != client.StatusOK {
		t.Fatalf("call 2: %+v", wipe)
	}
	if len(con.asked) != 1 || con.asked[0].Call != 2 {
		t.Fatalf("the console was asked %+v", con.asked)
	}
}

// A refused call is decided when it ends; a console link with no one
// attached neither is asked nor makes the host's calls interactive: a
// host without forms gets the refusal policy gives in batch.
func TestObserveHearsARefusalAndAnAbsentConsoleIsNotAsked(t *testing.T) {
	t.Parallel()
	s := &seen{}
	con := &console{present: false}
	r := newRig(t, "proxy", func(o *Options) { o.Observe = s.observe; o.Console = con })
	res := callTool(t, r.goHost("2025-11-25", nil), "wipe", nil)
	if !res.IsError || r.executions("wipe") != 0 {
		t.Fatalf("%s, executions %d", textOf(res), r.executions("wipe"))
	}
	ev := s.of(1)
	if len(ev) != 3 || ev[1].kind != EventDecided || ev[1].verdict != policy.Refuse || ev[2].status != client.StatusRefused {
		t.Fatalf("%+v", ev)
	}
	if len(con.asked) != 0 {
		t.Fatalf("an absent console was asked %d times", len(con.asked))
	}
	if o := r.lastLogged("wipe"); o.Need != policy.NeedApproval {
		t.Fatalf("need %q: the call was not decided in batch", o.Need)
	}
}
