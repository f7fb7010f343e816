//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
)

// The interactive view follows a task of the TypeScript SDK 2.x test
// server's tasks extension (.ci/ts-server-2, research and wait_for_cancel;
// its tasks move one step per tasks/get), at 80×24: research shows its
// task running with its status message, asks for its angle through the
// view's dialog (put aside, the running task shows it is waiting for
// input), and ends with its report and its task; esc on wait_for_cancel
// cancels the task and the server records the cancel; quitting while a
// task runs cancels it too. The session log has each call with its task.
func TestTUIFollowsAndCancelsTasks(t *testing.T) {
	t.Parallel()
	script := tsServer2(t)
	x := newTmux(t)
	dir := t.TempDir()
	state, cancels, status := filepath.Join(dir, "state"), filepath.Join(dir, "cancels"), filepath.Join(dir, "status")
	shell := fmt.Sprintf("HOME=%s XDG_STATE_HOME=%s MCPSH_TS2_CANCELS=%s TERM=xterm-256color %s -- node %s; echo $? > %s; sleep 30",
		dir, state, cancels, mcpshBin, script, status)
	x.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell)
	x.waitFor("MCP 2026-07-28", "Research, as a task", "Read-only (3)")

	// research: its form, then the task, which asks for an angle at once.
	x.keys("/", "r", "e", "s", "e", "a", "r", "c", "h", "Enter", "Enter")
	x.waitFor("topic*")
	x.run("send-keys", "-t", "t", "-l", "tides")
	x.keys("C-r")
	x.waitFor("asks for input", "Which angle?", "research runs on under this request")
	// Put aside, the request lets the running task show: waiting for input.
	x.keys("C-l")
	s := x.waitFor("running as a task", "input_required", "Waiting for an angle", "esc cancel the task (the server is told)")
	research := taskIDOnScreen(t, s)
	x.keys("C-l")
	x.waitFor("Which angle?")
	x.run("send-keys", "-t", "t", "-l", "history")
	x.keys("C-s")
	x.waitFor("Research, as a task  research  ok", "Report on tides (angle history)", "task "+research+" · completed")

	// wait_for_cancel runs until esc cancels it: the server is told.
	x.keys("Escape", "Escape", "/", "w", "a", "i", "t", "Enter", "Enter")
	s = x.waitFor("running as a task", "working", "still waiting (")
	waiting := taskIDOnScreen(t, s)
	x.keys("Escape")
	x.waitFor("wait_for_cancel  cancelled", "task "+waiting+" · cancelled", "cancelled by the user (the server")
	// The server wrote its record before it answered tasks/cancel, which
	// the result shown waited for.
	if got := cancelsIn(t, cancels); len(got) != 1 || got[0] != waiting {
		t.Fatalf("the server recorded cancels %q, want %s", got, waiting)
	}

	// Quitting while a task runs cancels it before the server is closed.
	x.keys("Escape", "Enter")
	s = x.waitFor("running as a task", "still waiting (")
	quit := taskIDOnScreen(t, s)
	x.keys("C-c")
	deadline := time.Now().Add(patience)
	for {
		if _, err := os.Stat(status); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mcpsh did not quit on ctrl+c:\n%s", x.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := cancelsIn(t, cancels); len(got) != 2 || got[1] != quit {
		t.Fatalf("the server recorded cancels %q, want %s then %s", got, waiting, quit)
	}

	// The session log has each call as its task ended.
	want := map[string]client.TaskStatus{research: client.TaskCompleted, waiting: client.TaskCancelled, quit: client.TaskCancelled}
	es := loggedTasks(t, filepath.Join(state, "mcpsh", "sessions"))
	if len(es) != len(want) {
		var got []string
		for _, e := range es {
			got = append(got, e.Tool+" "+string(e.Status))
		}
		t.Fatalf("the log has %d calls (%q), want %d", len(es), got, len(want))
	}
	for _, e := range es {
		if e.Task == nil || want[e.Task.ID] == "" || e.Task.Status != want[e.Task.ID] {
			t.Errorf("the log records %s (%s) with task %+v", e.Tool, e.Status, e.Task)
		}
	}
}

// taskIDOnScreen is the ID on the running screen's "task ID" line.
func taskIDOnScreen(t *testing.T, screen string) string {
	t.Helper()
	for _, l := range strings.Split(screen, "\n") {
		if id, ok := strings.CutPrefix(strings.TrimSpace(l), "task "); ok && id != "" && !strings.Contains(id, " ") {
			return id
		}
	}
	t.Fatalf("no task ID on the screen:\n%s", screen)
	return ""
}

// cancelsIn are the task IDs the server recorded as cancelled, in order.
func cancelsIn(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// server-everything's simulate-research-query runs only as a task (protocol
// 2025-11-25's augmentation, taskSupport "required"): the detail says so,
// and the view follows the task through its stages, answers the
// clarification it asks for (through tasks/result) in the view's dialog,
// and shows the report with its task.
func TestTUIRunsServerEverythingsTaskTool(t *testing.T) {
	t.Parallel()
	everything := npmBin(t, "mcp-server-everything")
	x := newTmux(t)
	dir := t.TempDir()
	shell := fmt.Sprintf("HOME=%s XDG_STATE_HOME=%s TERM=xterm-256color %s -- %s; sleep 30", dir, filepath.Join(dir, "state"), mcpshBin, everything)
	x.run("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", shell)
	x.waitFor("Write (")
	x.keys("/", "s", "i", "m", "u", "l", "a", "t", "e", "-", "r")
	x.waitFor("simulate-research-query · write · runs as a task")
	x.keys("Enter", "Enter")
	x.waitFor("topic*", "ambiguous")
	x.run("send-keys", "-t", "t", "-l", "python")
	x.keys("Down", "Right")
	x.waitFor("‹ true ›")
	x.keys("C-r")
	s := x.waitFor("running as a task", "working")
	id := taskIDOnScreen(t, s)
	x.waitFor("asks for input", "could have multiple interpretations", "simulate-research-query runs on under this request")
	x.keys("Right")
	x.waitFor("‹ Python programming language ›")
	x.keys("C-s")
	x.waitFor("simulate-research-query  ok", "task "+id+" · completed", "# Research Report: python (programming)")
	x.keys("Escape", "Escape", "q")
}
