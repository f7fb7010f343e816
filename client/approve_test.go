package client

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// Call.Approve: the hook a proxy gives Do, asked on the tool as the server
// declares it when the call is decided, and holding only for what it was
// shown.

func TestApproveIsAskedOnTheToolAsDeclaredNow(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "redeclare")
	s := connectFixture(t, target, nil)
	listed := mustTool(t, s, "get_thing") // read-only when listed
	if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "trigger"), Mode: policy.Batch}); o.Status != StatusOK {
		t.Fatalf("trigger: %s %s", o.Status, o.Error)
	}
	var shown []*Approval
	decline := func(_ context.Context, a *Approval) Answer {
		shown = append(shown, a)
		return Answer{Verdict: AnswerDeclined, By: policy.ByHost}
	}
	o, err := s.Do(context.Background(), &Call{Tool: listed, Mode: policy.Interactive, Approve: decline, Host: &Peer{Name: "host"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) != 1 || shown[0].Tool.Class() != policy.ClassDestructive || shown[0].Decision.Verdict != policy.Ask || shown[0].Server != target.Name {
		t.Fatalf("asked %d times, about %+v; want once, about get_thing as re-declared (destructive)", len(shown), shown)
	}
	if o.Status != StatusRefused || o.ApprovedBy != "" || !strings.Contains(o.Reason, "declined by the host's user") ||
		fixture.CountIn(state, "executions", "get_thing") != 0 || !o.Proxy || o.Host.Name != "host" {
		t.Fatalf("declined: %s (%s) by %q, executions %d, host %+v; want refused, never sent", o.Status, o.Reason, o.ApprovedBy,
			fixture.CountIn(state, "executions", "get_thing"), o.Host)
	}

	approve := func(context.Context, *Approval) Answer { return Answer{Verdict: AnswerApproved, By: policy.ByHost} }
	o, _ = s.Do(context.Background(), &Call{Tool: listed, Mode: policy.Interactive, Approve: approve})
	if o.Status != StatusOK || o.ApprovedBy != policy.ByHost || !strings.Contains(o.Reason, "approved by the host's user") ||
		fixture.CountIn(state, "executions", "get_thing") != 1 {
		t.Fatalf("approved: %s (%s) by %q, executions %d", o.Status, o.Reason, o.ApprovedBy, fixture.CountIn(state, "executions", "get_thing"))
	}
}

// The server re-declares the tool while the person is being asked: the
// yes was for other hints, so nothing is sent.
func TestApprovalHoldsOnlyForTheHintsShown(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "redeclare")
	target.Trust = policy.Untrusted // every call asks, the read-only one too
	s := connectFixture(t, target, nil)
	approveAfterChange := func(ctx context.Context, a *Approval) Answer {
		if a.Tool.Class() != policy.ClassReadOnly {
			t.Errorf("asked about %s; want get_thing as listed before the change (read-only)", a.Tool.Class())
		}
		trig := &Call{Tool: mustTool(t, s, "trigger"), Mode: policy.Batch, Preapproved: true}
		if o, _ := s.Do(ctx, trig); o.Status != StatusOK {
			t.Errorf("trigger: %s %s", o.Status, o.Error)
		}
		return Answer{Verdict: AnswerApproved, By: policy.ByHost}
	}
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get_thing"), Mode: policy.Interactive, Approve: approveAfterChange})
	if o.Status != StatusRefused || fixture.CountIn(state, "executions", "get_thing") != 0 || !strings.Contains(o.Reason, "changed the tool's hints") {
		t.Fatalf("%s (%s), executions %d; want refused: the approval was for read-only hints", o.Status, o.Reason,
			fixture.CountIn(state, "executions", "get_thing"))
	}
}

func TestNoOneToApproveRefusesAndSaysWhy(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	s := connectCounting(t, c)
	rm := mustTool(t, s, "rm")
	noOne := func(context.Context, *Approval) Answer { return Answer{Why: "no one answered within 2m0s"} }
	o, _ := s.Do(context.Background(), &Call{Tool: rm, Args: map[string]any{"text": "x"}, Mode: policy.Interactive, Approve: noOne})
	if o.Status != StatusRefused || o.Need != policy.NeedApproval || !strings.Contains(o.Reason, "no one answered within 2m0s") || c.executions("rm") != 0 {
		t.Fatalf("%s (%s) need %q, executions %d", o.Status, o.Reason, o.Need, c.executions("rm"))
	}

	// The caller gives up while the person is asked: cancelled, not sent.
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := func(context.Context, *Approval) Answer {
		cancel()
		return Answer{Verdict: AnswerApproved, By: policy.ByHost}
	}
	o, _ = s.Do(ctx, &Call{Tool: rm, Args: map[string]any{"text": "x"}, Mode: policy.Interactive, Approve: gaveUp})
	if o.Status != StatusCancelled || c.executions("rm") != 0 {
		t.Fatalf("cancelled while asked: %s (%s), executions %d", o.Status, o.Error, c.executions("rm"))
	}

	// A call that needs no one is not asked about.
	var asked atomic.Int32
	count := func(context.Context, *Approval) Answer { asked.Add(1); return Answer{} }
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get"), Args: map[string]any{"text": "x"}, Mode: policy.Interactive, Approve: count})
	if o.Status != StatusOK || asked.Load() != 0 || o.ApprovedBy != policy.ByPolicy {
		t.Fatalf("read-only: %s, asked %d times", o.Status, asked.Load())
	}
}
