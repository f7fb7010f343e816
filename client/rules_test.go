package client

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// Rules on hints, against servers that say what suits them (fixture
// scenario "slashes": fs/read_file claims readOnlyHint true).

// TestUntrustedReadOnlyClaimDoesNotEscapeAClassDeny: on an untrusted server
// "deny is:destructive" matches the worst case, so claiming read-only does
// not get a call past it, even one approved in advance.
func TestUntrustedReadOnlyClaimDoesNotEscapeAClassDeny(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "slashes")
	target.Trust, target.Rules = policy.Untrusted, []policy.Rule{{Pattern: "is:destructive", Action: policy.Deny}}
	s := connectFixture(t, target, nil)
	o, err := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "fs/read_file"), Mode: policy.Batch, Preapproved: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := fixture.CountIn(state, "executions", "fs/read_file"); o.Status != StatusRefused || n != 0 {
		t.Fatalf("%s (%s), executions %d: want refused by the rule, never sent", o.Status, o.Reason, n)
	}
	if !strings.Contains(o.Reason, `denied by rule "is:destructive" (the server is untrusted: it counts as destructive whatever it declares)`) {
		t.Errorf("reason %q", o.Reason)
	}
	var ro policy.Basis
	for _, b := range o.Basis {
		if b.Field == policy.FieldReadOnly {
			ro = b
		}
	}
	if ro.Declared != policy.True || ro.Value || ro.Believed || !ro.Decided || ro.Rule != "is:destructive" {
		t.Errorf("readOnlyHint in the outcome's basis: %+v; want declared true, not believed, read as false, decided by the rule", ro)
	}
}

// TestUntrustedServerIgnoresAllowOnHints: an allow rule on a facet would
// believe the server's hints to let a call run; on an untrusted server it
// is ignored, and the refusal says so. An allow by name still works.
func TestUntrustedServerIgnoresAllowOnHints(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "slashes")
	target.Trust, target.Rules = policy.Untrusted, []policy.Rule{{Pattern: "is:read-only", Action: policy.Allow}}
	s := connectFixture(t, target, nil)
	read := mustTool(t, s, "fs/read_file")
	o, _ := s.Do(context.Background(), &Call{Tool: read, Mode: policy.Batch})
	if n := fixture.CountIn(state, "executions", "fs/read_file"); o.Status != StatusRefused || n != 0 {
		t.Fatalf("%s (%s), executions %d: want refused, never sent", o.Status, o.Reason, n)
	}
	if !strings.Contains(o.Reason, `allow rule "is:read-only" ignored: it matches on the server's hints, and the server is untrusted`) ||
		o.Need != policy.NeedApproval {
		t.Errorf("reason %q, need %q", o.Reason, o.Need)
	}
	s.Target.Rules = []policy.Rule{{Pattern: "fs/read_*", Action: policy.Allow}}
	if o, _ := s.Do(context.Background(), &Call{Tool: read, Mode: policy.Batch}); o.Status != StatusOK || o.ApprovedBy != policy.ByRule {
		t.Errorf("allowed by name: %s by %q (%s)", o.Status, o.ApprovedBy, o.Reason)
	}
}

// TestOutcomeBasisFollowsTheNewDeclaration: when the server re-declares a
// tool under a call, the outcome's basis is the new declaration's: here
// get_thing is read-only until it first runs, which crashes the server, and
// the restarted server declares it destructive before the retry.
func TestOutcomeBasisFollowsTheNewDeclaration(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "redeclare-restart")
	s := connectFixture(t, target, nil)
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get_thing"), Mode: policy.Batch, Timeout: 5 * time.Second})
	if o.HintsChanged == "" {
		t.Fatalf("the server did not re-declare the tool: %s (%s)", o.Status, o.Error)
	}
	var got []string
	for _, b := range o.Basis {
		if b.Decided {
			got = append(got, b.String())
		}
	}
	if want := "destructiveHint true — declared by the server (a claim, not checked)"; strings.Join(got, "|") != want {
		t.Errorf("decided on %q, want %q", got, want)
	}
}
