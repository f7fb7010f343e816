package proxy

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call that needs a person (destructive or conflicting hints, an
// untrusted server, a confirm rule) is approved, in order, by: a deny or
// allow rule (policy.Decide, before anyone is asked); a person at a console
// watching the agent's calls (Options.Console; issue 21); the host's own
// user, through a form the host shows (elicitation), when the host declared
// it; else no one, and it is refused. A question not answered within the
// approval timeout is a refusal. An answer to a server's own request
// (forward.go) never approves a call: approvals come only from here.

// Asker asks a person about a call.
type Asker interface {
	// Ask puts q to a person. ok is false when there is no one here to ask
	// (a console that went away): the next asker is tried.
	Ask(ctx context.Context, q *Question) (ans client.Answer, ok bool)
}

// Question is a call a person is asked to approve.
type Question struct {
	Approval *client.Approval
	// Host is the agent's host the call is made for.
	Host client.Peer
	// Text is the question in words, as the host's user would see it.
	Text string
	// Call is the call's number in the proxy's events (Options.Observe);
	// 0 when calls are not observed.
	Call uint64
}

// approvalSchema is the host's form: one choice and no default, so a host
// that accepts every form unseen ("accept", no content) approves nothing.
var approvalSchema = json.RawMessage(`{"type":"object","properties":{"decision":{"type":"string","title":"Run this call?","enum":["run","refuse"]}},"required":["decision"]}`)

// approvalKey is the key of mcpsh's question inside an input-required result.
const approvalKey = "mcpsh-approval"

// approver is the Approve of a call made for the host: the console, then
// the host's user through a form, within the approval timeout.
func (h *host) approver(peer client.Peer, askHost bool) func(context.Context, *client.Approval) client.Answer {
	return func(ctx context.Context, a *client.Approval) client.Answer {
		ctx, cancel := context.WithTimeout(ctx, h.p.opts.ApprovalTimeout)
		defer cancel()
		q := &Question{Approval: a, Host: peer, Text: question(a, peer, h.p.opts.Target.Trust), Call: h.p.obs.callOf(a.Host)}
		var askers []Asker
		if h.p.opts.Console != nil {
			askers = append(askers, h.p.opts.Console)
		}
		if askHost {
			askers = append(askers, hostAsker{h})
		}
		for _, asker := range askers {
			ans, ok := asker.Ask(ctx, q)
			if ctx.Err() == context.DeadlineExceeded {
				return client.Answer{Why: fmt.Sprintf("no one answered within %s", h.p.opts.ApprovalTimeout)}
			}
			if ok {
				if ans.Verdict == client.AnswerApproved && ans.ForSession {
					h.allow(a.Tool)
				}
				return ans
			}
		}
		return client.Answer{Why: "no one could be asked: the host did not declare elicitation, and no console is attached"}
	}
}

// hostAsker asks the host's user with a form (elicitation/create), on hosts
// that speak protocol 2025-11-25 or older; a 2026-07-28 host is asked
// inside a result instead (mrtr.go).
type hostAsker struct{ h *host }

func (a hostAsker) Ask(ctx context.Context, q *Question) (client.Answer, bool) {
	res, err := a.h.ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: q.Text, RequestedSchema: approvalSchema})
	switch {
	case ctx.Err() != nil:
		return client.Answer{}, true
	case err != nil:
		return client.Answer{Why: "the host's answer to mcpsh's question was not one it asked for (" + errText(err) + ")"}, true
	}
	return readAnswer(res), true
}

// readAnswer reads the host's answer to mcpsh's form: only "accept" with
// decision "run" approves.
func readAnswer(res *mcp.ElicitResult) client.Answer {
	if res == nil {
		return client.Answer{Why: "the host sent no answer to mcpsh's question"}
	}
	switch res.Action {
	case "accept":
		if d, _ := res.Content["decision"].(string); d == "run" {
			return client.Answer{Verdict: client.AnswerApproved, By: policy.ByHost}
		}
		return client.Answer{Verdict: client.AnswerDeclined, By: policy.ByHost, Why: `the answer did not choose "run"`}
	case "decline":
		return client.Answer{Verdict: client.AnswerDeclined, By: policy.ByHost}
	}
	return client.Answer{Why: "the host's user dismissed mcpsh's question"}
}

// canAsk says whether someone can be asked about the host's calls: a
// console, or the host's user through a form (elicitation declared with
// form mode, or with no mode, which means form).
func (h *host) canAsk(req mcp.Request) bool {
	return h.p.consoleHere() || hostForms(req)
}

func hostForms(req mcp.Request) bool {
	hr, ok := req.(hostReq)
	if !ok {
		return false
	}
	caps := hr.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	e := caps.Elicitation
	return e.Form != nil || e.URL == nil
}

func errText(err error) string { return termtext.Truncate(termtext.Line(err.Error()), 200) }

// allow lets the tool run for the rest of the host's session, with the
// hints the person was shown.
func (h *host) allow(t *client.Tool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.allowed[t.Name] = t.Hints
}
