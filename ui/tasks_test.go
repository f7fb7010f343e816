package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/ui/tooldetail"
)

// A call the server runs as a task: its statuses reach the running screen
// as they come (the client's OnTask, through the call's update channel),
// each replacing the last; an update for another call is dropped; and a
// status message of any length keeps the screen within 80×24.
func TestATaskShowsItsStatusWhileItRuns(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	s := m.shown()
	tool, _ := s.session.Tool("echo")
	s.startCall(s.newCall(tool, map[string]any{"text": "hi"}))
	r := s.running
	if r == nil || s.mode != modeRunning {
		t.Fatalf("no call in flight: mode %v", s.mode)
	}
	status := func(id int, tk client.Task) { m.Update(serverMsg{srv: s, msg: taskMsg{id: id, task: tk}}) }

	status(r.run.id, client.Task{ID: "task-7f3c", Status: client.TaskWorking, StatusMessage: "Gathering sources on tides"})
	mustShow(t, m, "running as a task", "task task-7f3c", "working", "Gathering sources on tides", "esc cancel the task (the server is told)")
	status(r.run.id, client.Task{ID: "task-7f3c", Status: client.TaskInputRequired, StatusMessage: "Waiting for an angle"})
	mustShow(t, m, "input_required", "Waiting for an angle")
	if scr := screen(m); strings.Contains(scr, "Gathering sources") {
		t.Errorf("the old status message is still shown:\n%s", scr)
	}
	status(r.run.id+1, client.Task{ID: "other", Status: client.TaskWorking, StatusMessage: "someone else's"})
	if scr := screen(m); strings.Contains(scr, "someone else's") || !strings.Contains(scr, "Waiting for an angle") {
		t.Errorf("an update of another call was taken:\n%s", scr)
	}

	long := strings.Repeat("a status message that goes on ", 2000)
	status(r.run.id, client.Task{ID: strings.Repeat("x", 200), Status: client.TaskWorking, StatusMessage: long})
	checkScreen(t, "a long task", m.render(), 80, 24)
	body := renderRunning(r, "⣾", fixedNow, m.bar, 80, m.st, m.keys)
	if n := strings.Count(body, "a status message that goes on"); n == 0 || n > taskMessageLines*80/len("a status message that goes on") {
		t.Errorf("the status message takes %d repeats, want it cut to %d lines:\n%s", n, taskMessageLines, body)
	}
	if !strings.Contains(screen(m), strings.Repeat("x", 70)) {
		t.Errorf("the task's ID is not shown whole (wrapped):\n%s", screen(m))
	}

	// esc cancels the call's context, and the screen says the task is being cancelled.
	send(m, "esc")
	if !r.cancelling {
		t.Fatal("esc did not cancel the call")
	}
	mustShow(t, m, "cancelling the task (the server is told)")
}

func TestRunningTaskGolden(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	tool, _ := m.shown().session.Tool("slow_count")
	r := &runningCall{call: m.shown().newCall(tool, map[string]any{"n": 10}), started: fixedNow.Add(-2500 * time.Millisecond),
		task: &client.Task{ID: "8d0c6a52-4f1e-4b7e-9a0e-2f1c3b5d7e91", Kind: client.TaskExtension, Status: client.TaskWorking,
			StatusMessage: "Analyzing sources"}}
	golden(t, "running/task-80", renderRunning(r, "⣾", fixedNow, m.bar, 80, m.st, m.keys))
}

// The tool detail says which tools run as a task.
func TestTheDetailSaysAToolRunsAsATask(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	tk, _ := m.shown().session.Tool("echo") // this test's own session: it may change its tool
	for support, want := range map[string]string{client.TaskRequired: "· runs as a task", client.TaskOptional: "· may run as a task", "": ""} {
		tk.TaskSupport = support
		got := tooldetail.Render(tk, m.shown().decision(tk), nil, 60, m.st)
		if want != "" && !strings.Contains(got, want) || want == "" && strings.Contains(got, "as a task") {
			t.Errorf("taskSupport %q: the detail does not say %q:\n%s", support, want, got)
		}
	}
}

// taskServer is a workspace of one fixture server whose tools answer with
// tasks (scenario tasks-hostile: never_ends works for ever, evil_status
// says things full of escapes, then completes), ready.
func taskServer(t *testing.T) (*Model, *driver, *serverState, string) {
	t.Helper()
	c, state := fixtureChoice(t, "tasks", "tasks-hostile")
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow }, Choices: []Choice{c}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	d := drive(t, m)
	d.run(m.Init())
	s := server(t, m, "tasks")
	d.until("the server to be ready", func() bool { return ready(s) && m.shown() == s && s.mode == modeBrowse })
	return m, d, s, state
}

// esc on a task: the call's context is cancelled, the client tells the
// server (tasks/cancel, which the fixture records), and the result says
// the task was cancelled and the server told; the outcome, which the log
// records, carries the task.
func TestEscCancelsTheTaskAndTheServerIsTold(t *testing.T) {
	m, d, s, state := taskServer(t)
	d.callTool("never_ends")
	d.until("the task to show", func() bool { return strings.Contains(screen(m), "task never_ends") })
	mustShow(t, m, "running as a task", "working", "started")
	if n := fixture.CountIn(state, "cancels", "never_ends"); n != 0 {
		t.Fatalf("the task was cancelled before esc (%d)", n)
	}
	d.keys("esc")
	d.until("the result", func() bool { return s.mode == modeResult })
	if n := fixture.CountIn(state, "cancels", "never_ends"); n != 1 {
		t.Fatalf("the server heard %d tasks/cancel, want 1", n)
	}
	mustShow(t, m, "cancelled", "task never_ends: cancelled by the user (the server was told)", "task never_ends · ")
	o := s.outcomes[len(s.outcomes)-1]
	if o.Status != client.StatusCancelled || o.Task == nil || o.Task.ID != "never_ends" {
		t.Fatalf("the outcome is %s with task %+v", o.Status, o.Task)
	}
	// The log pane, opened on the call, names the task.
	d.keys("L", "enter")
	mustShow(t, m, "task      never_ends · ")
}

// Quitting while a task runs cancels it, and the server hears so before
// its session closes.
func TestQuittingCancelsARunningTask(t *testing.T) {
	m, d, _, state := taskServer(t)
	d.callTool("never_ends")
	d.until("the task to show", func() bool { return strings.Contains(screen(m), "task never_ends") })
	m.Close()
	if n := fixture.CountIn(state, "cancels", "never_ends"); n != 1 {
		t.Fatalf("the server heard %d tasks/cancel, want 1", n)
	}
}

// A task's status messages, full of escapes, reach the screen made safe,
// each as it comes; the result names the task and its final status.
func TestATasksStatusMessagesAreShownSafe(t *testing.T) {
	m, d, s, _ := taskServer(t)
	d.callTool("evil_status")
	d.until("the second status message", func() bool { return strings.Contains(screen(m), "half") })
	checkSafe(t, m.render())
	d.until("the result", func() bool { return s.mode == modeResult })
	mustShow(t, m, "ok", "finished", "task evil_status · completed · 2 polls")
	checkSafe(t, m.render())
}

// checkSafe fails on the fixture's hostile sequences in a frame (NO_COLOR:
// the frame has no escapes of mcpsh's own but the cursor's).
func checkSafe(t *testing.T, frame string) {
	t.Helper()
	for _, bad := range []string{"\x1b]", "\u009b", "\u202e", "\x1bP", "\x1b[2J", "\x1b[31m"} {
		if strings.Contains(frame, bad) {
			t.Fatalf("the frame holds %q:\n%q", bad, frame)
		}
	}
}
