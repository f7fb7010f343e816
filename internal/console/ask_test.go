package console

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/proxy"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
	"github.com/mcpsh/mcpsh/policy"
)

// With no console attached, Ask says at once that no one is here.
func TestAskWithNoConsoleReturnsAtOnce(t *testing.T) {
	h, err := Start(HubOptions{Dir: shortDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	tool := &client.Tool{Name: "wipe"}
	if _, ok := h.Ask(context.Background(), &proxy.Question{Approval: &client.Approval{Tool: tool}}); ok || h.Present() {
		t.Fatal("a hub with no console answered, or says one is here")
	}
}

// The console sees the host, then the read-only call start, be decided by
// policy, and end; its arguments as the log keeps them.
func TestAConsoleSeesTheHostAndTheCalls(t *testing.T) {
	r := newRig(t, rigOpts{})
	w := r.watch()
	// The host connected before the console: the proxy's hello names it.
	up := r.attached(w)
	if res := wait.Recv(t, "the call", r.call("search_notes", map[string]any{"query": "milk", "api_key": "sk-live-1234567890abcdef"})); res.IsError {
		t.Fatal(textOf(res))
	}
	if up.Info.Host == nil || up.Info.Host.Name != "rig-host" || up.Info.Host.Version != "3.1" || up.Info.Server.Protocol == "" {
		t.Fatalf("the proxy as updated: %+v", up.Info)
	}
	started := next(t, w, "the call's start", kind("call-started")).Call
	if started.Tool != "search_notes" || started.Class != policy.ClassReadOnly || started.Host == nil || started.Host.Name != "rig-host" || started.Decision != policy.Run {
		t.Fatalf("started: %+v", started)
	}
	if args, _ := started.Args.(map[string]any); args["query"] != "milk" || args["api_key"] != "[redacted]" {
		t.Fatalf("args as the console sees them: %v", started.Args)
	}
	decided := next(t, w, "the decision", kind("call-decided")).Call
	if decided.ID != started.ID || decided.Decision != policy.Run || len(decided.Basis) == 0 || decided.Reason == "" {
		t.Fatalf("decided: %+v", decided)
	}
	ended := next(t, w, "the end", kind("call-ended")).Call
	if ended.ID != started.ID || ended.Status != client.StatusOK || ended.Attempts != 1 {
		t.Fatalf("ended: %+v", ended)
	}
}

// Two consoles: both are asked, the first answer wins, both are told (the
// winner that it was theirs), a late answer changes nothing, and the call
// runs once.
func TestTwoConsolesTheFirstAnswerWins(t *testing.T) {
	r := newRig(t, rigOpts{})
	w1, w2 := r.watch(), r.watch()
	r.attached(w1)
	r.attached(w2)
	done := r.call("delete_note", map[string]any{"id": 2, "password": "hunter2"})
	q1 := next(t, w1, "the question at console 1", kind(QuestionAsked))
	q2 := next(t, w2, "the question at console 2", kind(QuestionAsked))
	q := q1.Question
	if q.ID != q2.Question.ID || q.Tool != "delete_note" || q.Class != policy.ClassDestructive || q.Server != "demo" || q.Host.Name != "rig-host" ||
		q.Why == "" || len(q.Basis) == 0 || q.Call == 0 || q.Deadline.IsZero() || !strings.Contains(q.Text, "delete_note") {
		t.Fatalf("the question: %+v", q)
	}
	if args, _ := q.Args.(map[string]any); args["id"] != float64(2) || args["password"] != "[redacted]" {
		t.Fatalf("the question's arguments: %v", q.Args)
	}
	if err := w1.Answer(q1.Proxy, q.ID, Run); err != nil {
		t.Fatal(err)
	}
	c2 := next(t, w2, "console 2 told", kind(QuestionClosed)).Closed
	c1 := next(t, w1, "console 1 told", kind(QuestionClosed)).Closed
	if c2.Question != q.ID || c2.How != ClosedAnswered || c2.Choice != Run || c2.Yours || !c1.Yours {
		t.Fatalf("closed: console 1 %+v, console 2 %+v", c1, c2)
	}
	if err := w2.Answer(q2.Proxy, q.ID, Refuse); err != nil { // too late
		t.Fatal(err)
	}
	res := wait.Recv(t, "the call", done)
	if res.IsError || r.demo.Executions("delete_note") != 1 {
		t.Fatalf("%s, executions %d", textOf(res), r.demo.Executions("delete_note"))
	}
	d := next(t, w2, "the decision", func(e Event) bool { return e.Kind == "call-decided" && e.Call.Tool == "delete_note" }).Call
	if d.ApprovedBy != policy.ByConsole {
		t.Fatalf("approved by %q", d.ApprovedBy)
	}
}

// Refused at the console: the agent gets a tool error, and nothing
// reaches the server.
func TestARefusalAtTheConsole(t *testing.T) {
	r := newRig(t, rigOpts{})
	w := r.watch()
	r.attached(w)
	done := r.call("delete_note", map[string]any{"id": 2})
	q := next(t, w, "the question", kind(QuestionAsked))
	if err := w.Answer(q.Proxy, q.Question.ID, Refuse); err != nil {
		t.Fatal(err)
	}
	res := wait.Recv(t, "the call", done)
	if !res.IsError || !strings.Contains(textOf(res), "declined at the console") || r.demo.Executions("delete_note") != 0 {
		t.Fatalf("%q, executions %d", textOf(res), r.demo.Executions("delete_note"))
	}
}

// "allow" runs the call and lets the tool run unasked for the rest of the
// host's session.
func TestAllowLetsTheToolRunForTheSession(t *testing.T) {
	r := newRig(t, rigOpts{})
	w := r.watch()
	r.attached(w)
	done := r.call("pop_note", nil)
	q := next(t, w, "the question", kind(QuestionAsked))
	if err := w.Answer(q.Proxy, q.Question.ID, Allow); err != nil {
		t.Fatal(err)
	}
	if res := wait.Recv(t, "the first call", done); res.IsError {
		t.Fatal(textOf(res))
	}
	if res := wait.Recv(t, "the second call", r.call("pop_note", nil)); res.IsError {
		t.Fatal(textOf(res))
	}
	if n := r.demo.Executions("pop_note"); n != 2 {
		t.Fatalf("executions %d", n)
	}
	// The second call's events come in order, with no question between
	// its start and its decision.
	second := next(t, w, "the second call's start", func(e Event) bool {
		return e.Kind == "call-started" && e.Call.ID == q.Question.Call+1
	}).Call
	e := next(t, w, "what follows", func(e Event) bool { return e.Kind == QuestionAsked || e.Kind == "call-decided" })
	if e.Kind != "call-decided" || e.Call.ID != second.ID || e.Call.Decision != policy.Run || e.Call.ApprovedBy == policy.ByConsole {
		t.Fatalf("after the second start: %+v %+v", e, e.Call)
	}
}

// The only console goes away mid-question: the host's user is asked
// instead, at once, not after the approval timeout.
func TestAConsoleGoneMidQuestionFallsToTheHost(t *testing.T) {
	r := newRig(t, rigOpts{hostAnswers: "run"})
	w := r.watch()
	r.attached(w)
	done := r.call("delete_note", map[string]any{"id": 3})
	next(t, w, "the question", kind(QuestionAsked))
	w.Close()
	res := wait.Recv(t, "the call", done)
	if res.IsError || r.hostAsked() != 1 || r.demo.Executions("delete_note") != 1 {
		t.Fatalf("%q, host asked %d, executions %d", textOf(res), r.hostAsked(), r.demo.Executions("delete_note"))
	}
}

// ... and with a host that cannot be asked, the call is refused: no one
// could be asked, which is not the approval timeout's refusal.
func TestAConsoleGoneMidQuestionIsARefusalWithoutAHostToAsk(t *testing.T) {
	r := newRig(t, rigOpts{})
	w := r.watch()
	r.attached(w)
	done := r.call("delete_note", map[string]any{"id": 3})
	next(t, w, "the question", kind(QuestionAsked))
	w.Close()
	res := wait.Recv(t, "the call", done)
	if !res.IsError || !strings.Contains(textOf(res), "no one could be asked") || r.demo.Executions("delete_note") != 0 {
		t.Fatalf("%q, executions %d", textOf(res), r.demo.Executions("delete_note"))
	}
}

// A console attached while a question is open is asked it too.
func TestAConsoleThatComesLateIsAskedTheOpenQuestion(t *testing.T) {
	r := newRig(t, rigOpts{})
	w1 := r.watch()
	r.attached(w1)
	done := r.call("delete_note", map[string]any{"id": 1})
	q := next(t, w1, "the question", kind(QuestionAsked)).Question
	w2 := r.watch()
	late := next(t, w2, "the open question", kind(QuestionAsked))
	if late.Question.ID != q.ID {
		t.Fatalf("asked %q, want %q", late.Question.ID, q.ID)
	}
	if err := w2.Answer(late.Proxy, q.ID, Run); err != nil {
		t.Fatal(err)
	}
	if res := wait.Recv(t, "the call", done); res.IsError {
		t.Fatal(textOf(res))
	}
}
