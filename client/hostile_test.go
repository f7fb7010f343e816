package client

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// Hostile and faulty servers over stdio, played by internal/testing/fixture. What
// reached the server is read from the fixture's state files, not from
// mcpsh's own account.

func connectFixture(t *testing.T, target Target, opts *Options) *Session {
	t.Helper()
	s, err := Connect(context.Background(), target, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitFor polls cond for a few seconds; the sleep is a polling interval, not
// a synchronisation.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCallAfterListChangedIsDecidedOnTheNewListing(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "redeclare")
	s := connectFixture(t, target, nil)
	listed := mustTool(t, s, "get_thing") // read-only, as first listed
	if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "trigger"), Mode: policy.Batch}); o.Status != StatusOK {
		t.Fatalf("trigger: %s %s", o.Status, o.Error)
	}
	o, err := s.Do(context.Background(), &Call{Tool: listed, Mode: policy.Batch})
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != StatusRefused || fixture.CountIn(state, "executions", "get_thing") != 0 {
		t.Fatalf("get_thing after list_changed: %s (%s), executions %d; want refused, never sent",
			o.Status, o.Reason, fixture.CountIn(state, "executions", "get_thing"))
	}
	if !strings.Contains(o.HintsChanged, "readOnlyHint true → false") || o.Class != policy.ClassDestructive ||
		!strings.Contains(o.Reason, "changed the tool's hints") {
		t.Errorf("outcome does not say the hints changed: class %s, hintsChanged %q, reason %q", o.Class, o.HintsChanged, o.Reason)
	}
}

func TestRestartedServerIsAskedAgainBeforeARetry(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "redeclare-restart")
	s := connectFixture(t, target, nil)
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get_thing"), Mode: policy.Batch, Timeout: 5 * time.Second})
	if o.Status != StatusFailed || fixture.CountIn(state, "executions", "get_thing") != 1 || s.Restarts() != 1 {
		t.Fatalf("status %s (%s), executions %d, restarts %d: the restarted server declares it destructive, so it must not be replayed",
			o.Status, o.Error, fixture.CountIn(state, "executions", "get_thing"), s.Restarts())
	}
	if !strings.Contains(o.Error, "not retried: the server's hints changed") || o.HintsChanged == "" {
		t.Errorf("error %q, hintsChanged %q", o.Error, o.HintsChanged)
	}
}

func TestConflictingHintsTakeTheStricterReading(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "conflict")
	s := connectFixture(t, target, nil)
	scan := mustTool(t, s, "scan")
	o, _ := s.Do(context.Background(), &Call{Tool: scan, Mode: policy.Batch})
	if o.Status != StatusRefused || !o.Conflict || o.ReplaySafe || fixture.CountIn(state, "executions", "scan") != 0 {
		t.Fatalf("scan: %s conflict=%v replaySafe=%v executions %d", o.Status, o.Conflict, o.ReplaySafe, fixture.CountIn(state, "executions", "scan"))
	}
	if d := s.Decide(&Call{Tool: scan, Mode: policy.Interactive}); d.Verdict != policy.Ask {
		t.Errorf("interactive: %s, want confirm", d.Verdict)
	}
}

func TestStdoutNoiseIsSkippedWithAWarning(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "noisy")
	var mu sync.Mutex
	var warnings []string
	s := connectFixture(t, target, &Options{OnWarning: func(w string) {
		mu.Lock()
		warnings = append(warnings, w)
		mu.Unlock()
	}})
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "read"), Mode: policy.Batch})
	if o.Status != StatusOK || fixture.CountIn(state, "executions", "read") != 1 {
		t.Fatalf("read: %s %s", o.Status, o.Error)
	}
	mu.Lock()
	all := strings.Join(warnings, "\n")
	mu.Unlock()
	for _, want := range []string{"not JSON-RPC: Starting server... ready", "not JSON-RPC: handling read",
		`not a JSON-RPC message: {"level":30,"time":1700000000000,"msg":"call \u001b[31mread"}`} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.ContainsRune(all, 0x1b) {
		t.Errorf("a warning carries the server's escape: %q", all)
	}
}

func TestCutOffMessageEndsTheSessionClearly(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "truncated")
	s := connectFixture(t, target, nil)
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "write"), Mode: policy.Batch, Timeout: 5 * time.Second})
	if o.Status != StatusFailed || !strings.Contains(o.Error, "broken JSON-RPC message on stdout") {
		t.Fatalf("status %s, error %q", o.Status, o.Error)
	}
}

func TestOversizedAnswerOnStdioFailsTheCallNotTheSession(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "oversized")
	s := connectFixture(t, target, nil)
	o, _ := s.Do(generous(t), &Call{Tool: mustTool(t, s, "big"), Mode: policy.Batch, Timeout: -1})
	if o.Status != StatusFailed || len(o.Attempts) != 1 || o.Attempts[0].Failure != string(policy.Oversized) ||
		fixture.CountIn(state, "executions", "big") != 1 {
		t.Fatalf("big: %s attempts %+v executions %d", o.Status, o.Attempts, fixture.CountIn(state, "executions", "big"))
	}
	if !strings.Contains(o.Error, "larger than 32 MiB") {
		t.Errorf("error %q", o.Error)
	}
	if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "read"), Mode: policy.Batch}); o.Status != StatusOK || s.Restarts() != 0 {
		t.Errorf("the next call: %s %s, restarts %d", o.Status, o.Error, s.Restarts())
	}
}

func TestTimeoutTellsTheServerAndSaysSoOnlyThen(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "slow")
	s := connectFixture(t, target, nil)
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "wait"), Mode: policy.Batch, Timeout: 200 * time.Millisecond, Attempts: 1})
	if o.Status != StatusFailed || !strings.Contains(o.Error, "(the server was told to cancel)") {
		t.Fatalf("status %s, error %q", o.Status, o.Error)
	}
	waitFor(t, "the server to note the cancellation", func() bool { return len(fixture.Lines(state, "cancelled")) == 1 })

	// Ctrl-C: cancelled once the call is known to have reached the server.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		waitFor(t, "the call to arrive", func() bool { return fixture.CountIn(state, "executions", "wait_write") == 1 })
		cancel()
	}()
	o, _ = s.Do(ctx, &Call{Tool: mustTool(t, s, "wait_write"), Mode: policy.Batch, Timeout: time.Minute})
	if o.Status != StatusCancelled || o.Error != "cancelled by the user (the server was told)" {
		t.Fatalf("status %s, error %q", o.Status, o.Error)
	}
	waitFor(t, "the server to note the second cancellation", func() bool { return len(fixture.Lines(state, "cancelled")) == 2 })
}

func TestRecursiveOutputSchemaCallIsStillRecorded(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "recursive")
	var recorded []*Outcome
	s := connectFixture(t, target, &Options{Recorder: func(o *Outcome) error { recorded = append(recorded, o); return nil }})
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "walk"), Mode: policy.Batch})
	if o.Status != StatusOK || len(recorded) != 1 {
		t.Fatalf("walk: %s %s, %d recorded", o.Status, o.Error, len(recorded))
	}
}

func TestAnswerNestedTooDeepFailsTheCallNotTheSession(t *testing.T) {
	t.Parallel()
	stdio, state := fixtureTarget(t, "too-deep")
	url, httpState := fixtureHTTP(t, "too-deep", fixture.HTTPOptions{SSE: true})
	for _, c := range []struct {
		target Target
		state  string
	}{{stdio, state}, {httpTarget(url), httpState}} {
		s := connectFixture(t, c.target, nil)
		o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "big"), Mode: policy.Batch, Timeout: 10 * time.Second})
		if o.Status != StatusFailed || len(o.Attempts) != 1 || fixture.CountIn(c.state, "executions", "big") != 1 ||
			!strings.Contains(o.Error, "nested more than 1000 levels deep") {
			t.Fatalf("%s: %s (%s), attempts %d, executions %d", c.target.Kind, o.Status, o.Error, len(o.Attempts), fixture.CountIn(c.state, "executions", "big"))
		}
		if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "read"), Mode: policy.Batch}); o.Status != StatusOK || s.Restarts() != 0 {
			t.Errorf("%s: the next call: %s %s, restarts %d", c.target.Kind, o.Status, o.Error, s.Restarts())
		}
	}
}

func TestCtrlCWhileReconnectingIsACancellation(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "dies")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := connectFixture(t, target, &Options{OnWarning: func(w string) {
		if strings.Contains(w, "reconnecting: attempt 1 failed") {
			cancel() // the user gives up while mcpsh waits for the server to come back
		}
	}})
	o, _ := s.Do(ctx, &Call{Tool: mustTool(t, s, "read"), Mode: policy.Batch, Timeout: 10 * time.Second, RetryMax: time.Minute})
	if o.Status != StatusCancelled {
		t.Fatalf("status %s (%s), want cancelled; attempts %+v", o.Status, o.Error, o.Attempts)
	}
}
