package client

import (
	"context"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// Arguments a caller checked (Call.Checked, as run does for a whole script)
// are checked again when the server has since changed the tool's schema:
// n fitted the first listing (a number) and not the second (a string), so
// set is never sent.
func TestCheckedArgumentsAreCheckedAgainOnANewListing(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "reschema")
	s := connectFixture(t, target, nil)
	set := mustTool(t, s, "set")
	args := map[string]any{"n": 1}
	if err := set.Validate(args); err != nil {
		t.Fatalf("n=1 does not fit the first listing: %v", err)
	}
	if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "trigger"), Mode: policy.Batch}); o.Status != StatusOK {
		t.Fatalf("trigger: %s %s", o.Status, o.Error)
	}
	o, err := s.Do(context.Background(), &Call{Tool: set, Args: args, Checked: set, Mode: policy.Batch})
	if err != nil {
		t.Fatal(err)
	}
	if n := fixture.CountIn(state, "executions", "set"); n != 0 || o.Status == StatusOK {
		t.Fatalf("set sent %d times with arguments the new schema refuses (status %s, %q)", n, o.Status, o.Error)
	}
}
