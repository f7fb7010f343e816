package console

import (
	"context"
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/proxy"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/policy"
)

// pending is a question open at the consoles.
type pending struct {
	msg  *outMsg
	done chan verdict // one verdict, sent under Hub.mu by whoever closes it
}

type verdict struct {
	choice Choice
	gone   bool // no console is left
}

var _ proxy.Asker = (*Hub)(nil)
var _ proxy.Presence = (*Hub)(nil)

// Ask puts q to every attached console and returns the first answer. With
// none attached, or once the last one goes away, ok is false: the proxy
// asks the host's user, or refuses. It never outlasts ctx (the proxy's
// approval timeout).
func (h *Hub) Ask(ctx context.Context, q *proxy.Question) (client.Answer, bool) {
	h.mu.Lock()
	if h.attached.Load() == 0 || h.closed {
		h.mu.Unlock()
		return client.Answer{}, false
	}
	h.nextQ++
	id := fmt.Sprintf("q%d", h.nextQ)
	p := &pending{msg: newOut(&Message{Type: TypeQuestion, Question: h.question(ctx, id, q)}), done: make(chan verdict, 1)}
	h.questions[id] = p
	for c := range h.consoles {
		if c.hello {
			c.out.push(p.msg, false)
		}
	}
	h.mu.Unlock()
	select {
	case v := <-p.done:
		if v.gone {
			return client.Answer{}, false
		}
		return answerOf(v.choice), true
	case <-ctx.Done():
	}
	why := "the call was cancelled"
	if ctx.Err() == context.DeadlineExceeded {
		why = "no one answered in time"
	}
	h.mu.Lock()
	_, open := h.questions[id]
	delete(h.questions, id)
	h.mu.Unlock()
	if !open {
		// Answered, or the consoles went, just as the wait ended.
		if v := <-p.done; !v.gone {
			return answerOf(v.choice), true
		}
		return client.Answer{}, false
	}
	h.broadcast(&Message{Type: TypeClosed, Closed: &Closed{Question: id, How: ClosedWithdrawn, Why: why}}, false)
	return client.Answer{Why: why}, true
}

func answerOf(c Choice) client.Answer {
	switch c {
	case Run:
		return client.Answer{Verdict: client.AnswerApproved, By: policy.ByConsole}
	case Allow:
		return client.Answer{Verdict: client.AnswerApproved, By: policy.ByConsole, ForSession: true}
	}
	return client.Answer{Verdict: client.AnswerDeclined, By: policy.ByConsole}
}

// answer takes p's answer: the first to a question open wins, and every
// console is told.
func (h *Hub) answer(from *peer, a Answer) {
	switch a.Choice {
	case Run, Refuse, Allow:
	default:
		return
	}
	h.mu.Lock()
	q, open := h.questions[a.Question]
	if !open {
		h.mu.Unlock()
		return // answered already, or withdrawn: the console was told
	}
	delete(h.questions, a.Question)
	q.done <- verdict{choice: a.Choice}
	for c := range h.consoles {
		if c.hello {
			c.out.push(newOut(&Message{Type: TypeClosed, Closed: &Closed{Question: a.Question, How: ClosedAnswered, Choice: a.Choice, Yours: c == from}}), false)
		}
	}
	h.mu.Unlock()
}

// question is q as the consoles are asked it.
func (h *Hub) question(ctx context.Context, id string, q *proxy.Question) *Question {
	a := q.Approval
	t := a.Tool
	deadline, _ := ctx.Deadline()
	return &Question{
		ID: id, Call: q.Call, Tool: t.Name, Title: t.Title, Server: a.Server, Host: q.Host,
		Class: t.Class(), Facets: facets(t.Hints), OpenWorld: a.Decision.OpenWorld,
		Why: a.Decision.Reason, Rule: a.Decision.Rule, Basis: append([]policy.Basis(nil), a.Decision.Basis...),
		Args: h.args(a.Args), Text: q.Text, Deadline: deadline.UTC(),
	}
}

// args are a call's arguments as the log keeps them; never nothing, for a
// question: a person approves what they see.
func (h *Hub) args(m map[string]any) any {
	if v := h.opts.Args(m); v != nil || m == nil {
		return v
	}
	return sessionlog.ArgsRedact.Apply(m)
}

// facets are the marks of a tool's hints as policy's words, its class
// left out (it has a field of its own).
func facets(hints policy.Hints) []string {
	f := hints.Facets()
	var out []string
	for _, w := range policy.FacetWords {
		switch w.Facet {
		case policy.FacetDestructive, policy.FacetWrite, policy.FacetReadOnly:
			continue
		}
		if f&w.Facet != 0 {
			out = append(out, w.Word)
		}
	}
	return out
}

// Observe hears the proxy's host and calls (proxy.Options.Observe). It
// never blocks: with no console attached it does nothing, and a console
// that falls behind loses call events, counted.
func (h *Hub) Observe(e proxy.Event) {
	if e.Kind == proxy.EventHost {
		h.setHost(e.Host, e.Protocol)
		return
	}
	if h.attached.Load() == 0 {
		return
	}
	h.broadcast(&Message{Type: TypeCall, Call: h.callEvent(e)}, true)
}

// callEvent is what a console is told of e; it keeps nothing of e's.
func (h *Hub) callEvent(e proxy.Event) *CallEvent {
	ce := &CallEvent{ID: e.Call, Time: e.Time.UTC()}
	switch e.Kind {
	case proxy.EventStarted:
		host := e.Host
		ce.Event, ce.Host = CallStarted, &host
		if t := e.Tool; t != nil {
			ce.Tool, ce.Title, ce.Class, ce.Facets = t.Name, t.Title, t.Class(), facets(t.Hints)
		}
		ce.OpenWorld, ce.Decision = e.Decision.OpenWorld, e.Decision.Verdict
		ce.Args = h.args(e.Args)
	case proxy.EventDecided:
		ce.Event = CallDecided
		if o := e.Outcome; o != nil {
			ce.Tool, ce.Decision, ce.ApprovedBy, ce.Reason, ce.Rule = o.Tool, o.Decision, o.ApprovedBy, o.Reason, o.Rule
			ce.Basis = append([]policy.Basis(nil), o.Basis...)
			ce.OpenWorld = o.OpenWorld
		}
	case proxy.EventEnded:
		ce.Event = CallEnded
		if o := e.Outcome; o != nil {
			ce.Tool, ce.Status, ce.DurationMS, ce.Attempts, ce.Error = o.Tool, o.Status, o.DurationMS, len(o.Attempts), o.Error
		} else if e.Err != nil {
			ce.Status, ce.Error = client.StatusFailed, "mcpsh did not send the call: "+e.Err.Error()
		}
	}
	return ce
}
