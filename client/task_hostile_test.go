package client

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// Tasks from servers that break the protocol (fixture scenarios
// tasks-hostile and tasks-unoffered, raw JSON-RPC over stdio).

func taskFixture(t *testing.T, scenario string) (*Session, string) {
	t.Helper()
	target, state := fixtureTarget(t, scenario)
	return connectFixture(t, target, &Options{Name: "t", Version: "1"}), state
}

func callTask(t *testing.T, s *Session, name string, c *Call) *Outcome {
	t.Helper()
	tool, ok := s.Tool(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	c.Tool, c.Mode = tool, policy.Batch
	o, err := s.Do(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestTaskThatNeverEndsIsBoundedAndCancelled(t *testing.T) {
	s, state := taskFixture(t, "tasks-hostile")
	o := callTask(t, s, "never_ends", &Call{Timeout: 400 * time.Millisecond})
	if o.Status != StatusFailed || o.Task == nil || !strings.Contains(o.Error, "did not change within") {
		t.Fatalf("outcome %s: %s (task %+v)", o.Status, o.Error, o.Task)
	}
	if n := fixture.CountIn(state, "cancels", "never_ends"); n != 1 {
		t.Fatalf("the server heard %d tasks/cancel, want 1: %s", n, o.Error)
	}
	if len(o.Attempts) != 1 {
		t.Fatalf("a call whose task was created was sent %d times", len(o.Attempts))
	}
}

func TestTaskStatusMessagesAreMadeSafe(t *testing.T) {
	s, _ := taskFixture(t, "tasks-hostile")
	var mu sync.Mutex
	var seen []string
	o := callTask(t, s, "evil_status", &Call{OnTask: func(tk Task) {
		mu.Lock()
		seen = append(seen, tk.StatusMessage)
		mu.Unlock()
	}})
	if o.Status != StatusOK {
		t.Fatalf("outcome %s: %s", o.Status, o.Error)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 2 {
		t.Fatalf("OnTask heard %q", seen)
	}
	for _, m := range seen {
		if !termtext.SafeLine(m) {
			t.Errorf("a status message reached the caller unsafe: %q", m)
		}
	}
}

func TestTaskAnswerAboutAnotherTaskIsAViolation(t *testing.T) {
	s, _ := taskFixture(t, "tasks-hostile")
	o := callTask(t, s, "id_changes", &Call{})
	if o.Status != StatusFailed || !strings.Contains(o.Error, "with task id_changes-other") || o.Result != nil {
		t.Fatalf("outcome %s: %s", o.Status, o.Error)
	}
}

func TestTaskFromAServerThatDidNotOfferTasks(t *testing.T) {
	s, _ := taskFixture(t, "tasks-unoffered")
	o := callTask(t, s, "sneaky", &Call{})
	if o.Status != StatusFailed || !strings.Contains(o.Error, `"task"`) || o.Task != nil {
		t.Fatalf("outcome %s: %s", o.Status, o.Error)
	}
}

func TestPollIntervalIsBounded(t *testing.T) {
	s := &Session{}
	for _, tt := range []struct {
		raw  string
		want time.Duration
	}{
		{`{"taskId":"a","status":"working","pollIntervalMs":0}`, taskPollDefault},
		{`{"taskId":"a","status":"working","pollIntervalMs":1}`, taskPollMin},
		{`{"taskId":"a","status":"working","pollIntervalMs":1e12}`, taskPollMax},
		{`{"taskId":"a","status":"working","pollIntervalMs":-5}`, taskPollDefault},
		{`{"taskId":"a","status":"working","pollIntervalMs":250}`, 250 * time.Millisecond},
	} {
		tk, _, err := s.readTask([]byte(tt.raw), TaskExtension)
		if err != nil {
			t.Fatal(err)
		}
		if got := pollEvery(tk); got != tt.want {
			t.Errorf("%s: polls every %s, want %s", tt.raw, got, tt.want)
		}
	}
}
