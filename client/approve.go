package client

import (
	"context"
	"encoding/json"

	"github.com/mcpsh/mcpsh/policy"
)

// A call whose decision is to confirm runs only when someone approves it.
// A program with a person at hand asks before Do (Session.Decide, then
// Call.Approved); a caller that asks someone elsewhere (a proxy asks the
// user of the agent's host) gives Do an Approve function instead, which Do
// asks on the tool as the server declares it at that moment, after the
// listing was refreshed and the arguments checked. The answer holds only
// for the hints that were shown: when the server declares the tool anew
// before the call is sent, the approval is void and the call is refused.

// AnswerVerdict is what came of asking someone to approve a call.
type AnswerVerdict string

const (
	// AnswerNoOne: no one answered (no one could be asked, or no one did in
	// time). The zero value, so an answer left unset approves nothing.
	AnswerNoOne AnswerVerdict = ""
	// AnswerApproved: a person answered yes to exactly what was shown.
	AnswerApproved AnswerVerdict = "approved"
	// AnswerDeclined: a person answered no.
	AnswerDeclined AnswerVerdict = "declined"
)

// Approval is what a person is asked to approve: the call, on the tool as
// declared now, and the decision that asks.
type Approval struct {
	// Server is how the person knows the server (Target.Label), safe for a
	// terminal.
	Server string
	Tool   *Tool
	Args   map[string]any
	// RawArgs are the arguments as they will be sent, when the caller gave
	// them (Call.RawArgs).
	RawArgs  json.RawMessage
	Decision policy.Decision
	// Host is the agent's host the call is made for, when there is one.
	Host *Peer
}

// Answer is the answer to an Approval.
type Answer struct {
	Verdict AnswerVerdict
	// By is who answered: policy.ByHost, policy.ByConsole or policy.ByUser.
	By policy.Approver
	// Why says, for a call not approved, what happened ("no one answered
	// within 2m0s"): it goes into the refusal's reason.
	Why string
	// ForSession: the person allowed the tool, with these hints, for the
	// rest of the session. Do does not remember it; the caller sets
	// Call.SessionAllowed on later calls.
	ForSession bool
}

// Peer is the program on the other side of a proxy: the agent's host, as
// it introduced itself (its claim, never checked: make it safe before
// showing it).
type Peer struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version,omitempty"`
	// Protocol is the MCP protocol version the host speaks with mcpsh.
	Protocol string `json:"protocol,omitempty"`
}

// askApproval asks c.Approve about the call on tool, which d says to
// confirm, and returns the call to go on with and its decision. ans is the
// answer; the call runs only when it is AnswerApproved, and then with
// Approved set on the tool that was shown, so a change of its hints before
// the send voids the approval (decideFor).
func (s *Session) askApproval(ctx context.Context, c *Call, tool *Tool, d policy.Decision) (*Call, policy.Decision, Answer) {
	label, _ := s.shown()
	ans := c.Approve(ctx, &Approval{Server: safeText(label), Tool: tool, Args: c.Args, RawArgs: c.RawArgs, Decision: d, Host: c.Host})
	if ans.Verdict != AnswerApproved || ctx.Err() != nil {
		if ans.Verdict == AnswerApproved {
			ans = Answer{Why: "the call was cancelled while it waited for approval"}
		}
		return c, d, ans
	}
	cc := *c
	cc.Tool, cc.Approved, cc.ApprovedBy = tool, true, ans.By
	cc.Approve = nil // asked once: a round or retry is decided on this answer
	return &cc, s.decideFor(&cc, tool), ans
}

// refuseUnapproved records a call that was not approved: declined by a
// person, or with no one to approve it. Nothing was sent.
func (o *Outcome) refuseUnapproved(ctx context.Context, d policy.Decision, ans Answer) {
	if ctx.Err() != nil {
		msg := "cancelled before the call reached the server, while it waited for approval"
		o.Status, o.Decision, o.ApprovedBy, o.Error = StatusCancelled, policy.Refuse, "", msg
		o.Err = &CallError{Failure: policy.Cancelled, Msg: msg}
		return
	}
	if ans.Verdict == AnswerDeclined {
		reason := declinedBy(ans.By)
		if ans.Why != "" {
			reason += ": " + ans.Why
		}
		o.refuse(reason)
		o.Need = policy.NeedNothing
		return
	}
	why := ans.Why
	if why == "" {
		why = "no one answered"
	}
	o.refuse(d.Reason + "; " + why)
	o.Need = policy.NeedApproval
}
