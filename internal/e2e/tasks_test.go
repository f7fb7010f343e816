//go:build unix

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// Tasks, against the TypeScript SDK 2.x test server's 2026-07-28 tasks
// extension (.ci/ts-server-2: research, wait_for_cancel; its contract is at
// the top of server.mjs) and against server-everything's 2025-11-25
// simulate-research-query (taskSupport "required").

// loggedTasks reads every entry of the session logs under sessions.
func loggedTasks(t *testing.T, sessions string) []sessionlog.Entry {
	t.Helper()
	ss, err := sessionlog.Sessions(sessions)
	if err != nil {
		t.Fatal(err)
	}
	var out []sessionlog.Entry
	for _, sess := range ss {
		es, _, err := sessionlog.ReadFile(sess.Path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, es...)
	}
	return out
}

func TestCallFollowsATaskToItsResult(t *testing.T) {
	t.Parallel()
	answers := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(answers, []byte(`{"angle":"history"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range tsServer2Targets(t) {
		t.Run(name, func(t *testing.T) {
			env, sessions, _ := stateEnv(t)
			r := mcpsh(t, opts{env: env}, at(target, "call", "--elicit", "@"+answers, "research", "topic=tides")...)
			wantCode(t, r, 0)
			contains(t, "the task's result", r.out, "Report on tides (angle history)")
			contains(t, "the task's status messages on stderr", r.errOut,
				"task ", "working: Gathering sources on tides", "working: Analyzing sources",
				"input_required: Waiting for an angle", `asked for input: "Which angle?"`, "working: Writing up (history)")
			es := loggedTasks(t, sessions)
			if len(es) != 1 || es[0].Task == nil || es[0].Status != client.StatusOK || es[0].Task.Status != client.TaskCompleted ||
				!strings.Contains(r.errOut, "task "+es[0].Task.ID+" ") {
				t.Fatalf("the log records %+v, want the completed task with the ID stderr showed\n%s", es, r.errOut)
			}
		})
	}
}

func TestRunWaitsForTasks(t *testing.T) {
	t.Parallel()
	for name, target := range tsServer2Targets(t) {
		t.Run(name, func(t *testing.T) {
			r := mcpsh(t, opts{stdin: "research topic=a\nresearch topic=b\n"}, at(target, "run", noLog)...)
			wantCode(t, r, 0)
			// Without --elicit the angle is declined: the server goes on with none.
			contains(t, "both tasks' results, in order", r.out, "Report on a (angle none)", "Report on b (angle none)")
			if strings.Index(r.out, "Report on a") > strings.Index(r.out, "Report on b") {
				t.Errorf("run did not wait for the first task:\n%s", r.out)
			}
		})
	}
}

func TestDetachThenTaskGetAndCancel(t *testing.T) {
	t.Parallel()
	target := tsServer2Targets(t)["http"]
	r := mcpsh(t, opts{}, at(target, "call", noLog, "--detach", "wait_for_cancel")...)
	wantCode(t, r, 0)
	id := strings.TrimSpace(r.out)
	if id == "" || strings.ContainsAny(id, " \n") {
		t.Fatalf("call --detach printed %q, want the task ID alone\n%s", r.out, r.errOut)
	}
	r = mcpsh(t, opts{}, at(target, "task", "get", id)...)
	wantCode(t, r, 0)
	contains(t, "task get", r.errOut, "task "+id+" working: still waiting (1)")
	r = mcpsh(t, opts{}, at(target, "task", "get", "--json", id)...)
	wantCode(t, r, 0)
	var got struct{ Task client.Task }
	if err := json.Unmarshal([]byte(r.out), &got); err != nil || got.Task.ID != id || got.Task.Status != client.TaskWorking {
		t.Fatalf("task get --json: %v %+v\n%s", err, got, r.out)
	}
	r = mcpsh(t, opts{}, at(target, "task", "cancel", id)...)
	wantCode(t, r, 0)
	contains(t, "task cancel", r.out, "task "+id+" cancelled")
	r = mcpsh(t, opts{}, at(target, "task", "get", id)...)
	wantCode(t, r, 1)
	contains(t, "a cancelled task", r.errOut, "cancelled")

	// A detached research task, looked up until it asks for input.
	r = mcpsh(t, opts{}, at(target, "call", noLog, "--detach", "--json", "research", "topic=x")...)
	wantCode(t, r, 0)
	var o client.Outcome
	if err := json.Unmarshal([]byte(r.out), &o); err != nil || o.Status != client.StatusTask || o.Task == nil || o.Task.ID == "" {
		t.Fatalf("call --detach --json: %v\n%s", err, r.out)
	}
	r = mcpsh(t, opts{}, at(target, "task", "get", "nonesuch")...)
	wantCode(t, r, 1)
	contains(t, "an unknown task", r.errOut, "unknown task ID")
}

func TestInterruptCancelsTheTask(t *testing.T) {
	t.Parallel()
	script := tsServer2(t)
	env, sessions, _ := stateEnv(t)
	cancels := filepath.Join(t.TempDir(), "cancels")
	cmd := exec.Command(mcpshBin, "call", "wait_for_cancel", "--", "node", script)
	cmd.Env = testEnv(t, append(env, "MCPSH_TS2_CANCELS="+cancels)...)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// The task exists once stderr shows its first status.
	var seen strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(seen.String(), "still waiting") {
		n, err := pr.Read(buf)
		if err != nil {
			t.Fatalf("mcpsh ended before the task was created: %v\n%s", err, seen.String())
		}
		seen.Write(buf[:n])
	}
	cmd.Process.Signal(syscall.SIGINT)
	rest := make(chan string)
	go func() {
		var b strings.Builder
		for {
			n, err := pr.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				rest <- b.String()
				return
			}
		}
	}()
	var tail string
	select {
	case tail = <-rest:
	case <-time.After(patience):
		t.Fatal("mcpsh did not end after SIGINT")
	}
	cmd.Wait()
	errOut := seen.String() + tail
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, errOut)
	}
	contains(t, "the interrupted task", errOut, "cancelled by the user (the server was told)")
	es := loggedTasks(t, sessions)
	if len(es) != 1 || es[0].Task == nil || es[0].Status != client.StatusCancelled {
		t.Fatalf("the log records %+v, want the cancelled task", es)
	}
	b, _ := os.ReadFile(cancels)
	if strings.TrimSpace(string(b)) != es[0].Task.ID {
		t.Fatalf("the server recorded cancels %q, want task %s", b, es[0].Task.ID)
	}
}

func TestRequiredTaskOfServerEverything(t *testing.T) {
	t.Parallel()
	everything := npmBin(t, "mcp-server-everything")
	env, sessions, _ := stateEnv(t)
	r := mcpsh(t, opts{env: env}, "call", "simulate-research-query", "topic=tides", "--", everything)
	wantCode(t, r, 0)
	contains(t, "the research report", r.out, "# Research Report: tides", "Stage 4: Generating report")
	// Its stages move on the server's clock (a second each) and mcpsh polls
	// at the server's interval (a second), so which stages a run sees
	// depends on the machine: one at least, as the task's status message.
	if !regexp.MustCompile(`working: (Gathering sources|Analyzing content|Synthesizing findings|Generating report)\.\.\.`).MatchString(r.errOut) {
		t.Errorf("no stage of the research reached stderr as a status message:\n%s", r.errOut)
	}
	es := loggedTasks(t, sessions)
	if len(es) != 1 || es[0].Task == nil || es[0].Task.Kind != client.TaskAugmented || es[0].Task.Status != client.TaskCompleted {
		t.Fatalf("the log records %+v, want the completed 2025-11-25 task", es)
	}
	// Its elicitation comes through tasks/result; the answer shapes the report.
	answers := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(answers, []byte(`{"interpretation":"snake"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r = mcpsh(t, opts{}, "call", noLog, "--elicit", "@"+answers, "simulate-research-query", "topic=python", "ambiguous=true", "--", everything)
	wantCode(t, r, 0)
	contains(t, "the clarified report", r.out, "# Research Report: python (snake)")
	contains(t, "input_required", r.errOut, "input_required")
}
