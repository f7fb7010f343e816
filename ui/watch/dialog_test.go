package watch

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
)

// A question comes up unbidden, while the person may be typing for the
// list: no key answers it before it has been on screen a moment (its tick
// armed it), not even y, a, n or esc, and enter and space never do. Those
// early keys are swallowed, not passed to the list.
func TestKeysTypedBeforeTheDialogAppearedCannotAnswerIt(t *testing.T) {
	m, a := newTest(t, true, 80, 24)
	feed(m, appeared(info("p1", "claude-code", "2.1", "notes", t0)),
		started("p1", 1, 0, "delete_note", "", policy.ClassDestructive, nil, map[string]any{"id": 2}),
		asked("p1", "q1", 1, "delete_note", policy.ClassDestructive, map[string]any{"id": 2}))
	if m.dialog == nil {
		t.Fatal("the question did not come up")
	}
	if s := uitest.Text(m.render()); !strings.Contains(s, "the keys answer in a moment") || strings.Contains(s, "y run it") {
		t.Fatalf("the dialog before it is armed:\n%s", s)
	}
	for _, k := range []string{"y", "a", "n", "esc", "enter", "space", "q", "?", "]"} {
		run(m, press(m, k))
	}
	m.Update(armMsg{seq: m.armSeq - 1}) // an earlier dialog's tick arms nothing
	run(m, press(m, "y"))
	if got := a.list(); len(got) != 0 || m.dialog == nil || m.help || m.sel != nil {
		t.Fatalf("keys before the dialog was armed: answers %v, dialog %v, help %v, proxy %v", got, m.dialog != nil, m.help, m.sel)
	}
	arm(m)
	for _, k := range []string{"enter", "space", "x", "1", "tab"} {
		run(m, press(m, k))
	}
	if got := a.list(); len(got) != 0 || m.dialog == nil {
		t.Fatalf("%v answered the armed dialog", got)
	}
	if s := uitest.Text(m.render()); !strings.Contains(s, "y run it") {
		t.Fatalf("the armed dialog does not say its keys:\n%s", s)
	}
	run(m, press(m, "y"))
	if got := a.list(); !slices.Equal(got, []string{"p1/q1/run"}) || m.dialog != nil {
		t.Fatalf("y: answers %v, dialog open %v", got, m.dialog != nil)
	}
}

// A question that comes while the filter is typed waits (the header says
// so) rather than take the keys being typed; it comes up when the filter
// is done.
func TestAQuestionWaitsWhileTheFilterIsTyped(t *testing.T) {
	m, a := newTest(t, true, 80, 24)
	feed(m, appeared(info("p1", "claude-code", "2.1", "notes", t0)))
	press(m, "/", "d")
	feed(m, asked("p1", "q1", 1, "delete_note", policy.ClassDestructive, nil))
	press(m, "a", "n", "y")
	if m.dialog != nil || len(a.list()) != 0 || m.filter.text != "dany" {
		t.Fatalf("typing the filter: dialog %v, answers %v, filter %q", m.dialog != nil, a.list(), m.filter.text)
	}
	if s := uitest.Text(m.render()); !strings.Contains(s, "1 approval waits") {
		t.Fatalf("the header does not say a question waits:\n%s", s)
	}
	press(m, "enter")
	if m.dialog == nil || m.armed {
		t.Fatalf("after the filter: dialog %v, armed %v", m.dialog != nil, m.armed)
	}
}

// Several questions queue; the header counts them, the dialog says how
// many more wait, and answering one brings up the next, of the proxy shown
// first.
func TestQuestionsQueue(t *testing.T) {
	m, a := newTest(t, true, 100, 30)
	feed(m, appeared(info("p1", "claude-code", "2.1", "notes", t0)), appeared(info("p2", "cursor", "1.2", "files", t0)),
		asked("p1", "q1", 1, "delete_note", policy.ClassDestructive, nil),
		asked("p1", "q2", 2, "wipe", policy.ClassDestructive, nil),
		asked("p2", "q1", 1, "rm", policy.ClassDestructive, nil))
	arm(m)
	s := uitest.Text(m.render())
	if !strings.Contains(s, "3 approvals wait") || !strings.Contains(s, "2 more waiting (1 from this proxy)") {
		t.Fatalf("three questions:\n%s", s)
	}
	run(m, press(m, "a"))
	if m.dialog == nil || m.dialog.q.Tool != "wipe" || m.armed {
		t.Fatalf("after the first answer the dialog is %+v, armed %v", m.dialog, m.armed)
	}
	arm(m)
	run(m, press(m, "esc"))
	arm(m)
	run(m, press(m, "n"))
	if got := a.list(); !slices.Equal(got, []string{"p1/q1/allow", "p1/q2/refuse", "p2/q1/refuse"}) || m.dialog != nil {
		t.Fatalf("answers %v, dialog open %v", got, m.dialog != nil)
	}
}

// Several consoles watch: the first answer wins. When another console
// answers the question on screen, the dialog closes and says so; when it
// answered first one this console answered too, the view says this
// console's answer was not used.
func TestAnotherConsolesAnswerClosesTheDialog(t *testing.T) {
	m, a := newTest(t, true, 80, 24)
	feed(m, appeared(info("p1", "claude-code", "2.1", "notes", t0)),
		started("p1", 1, 0, "delete_note", "", policy.ClassDestructive, nil, nil),
		asked("p1", "q1", 1, "delete_note", policy.ClassDestructive, nil),
		asked("p1", "q2", 2, "wipe", policy.ClassDestructive, nil))
	arm(m)
	feed(m, closedBy("p1", "q1", console.Run, false))
	s := uitest.Text(m.render())
	if !strings.Contains(s, "another console answered delete_note first: run") {
		t.Fatalf("after another console's answer:\n%s", s)
	}
	if m.dialog == nil || m.dialog.q.ID != "q2" || m.armed || len(a.list()) != 0 {
		t.Fatalf("the next question: %+v, armed %v, answers %v", m.dialog, m.armed, a.list())
	}
	arm(m)
	run(m, press(m, "y"))
	feed(m, closedBy("p1", "q2", console.Refuse, false))
	if s := uitest.Text(m.render()); !strings.Contains(s, "another console answered first (refused): your run was not used") {
		t.Fatalf("this console's answer lost:\n%s", s)
	}
	// A question withdrawn (no one answered in time) closes too.
	feed(m, asked("p1", "q3", 3, "wipe", policy.ClassDestructive, nil))
	feed(m, console.Event{Kind: console.QuestionClosed, Proxy: "p1", Closed: &console.Closed{Question: "q3", How: console.ClosedWithdrawn, Why: "no one answered in time"}})
	if s := uitest.Text(m.render()); m.dialog != nil || !strings.Contains(s, "wipe's question was withdrawn: no one answered in time") {
		t.Fatalf("withdrawn:\n%s", s)
	}
}

// A proxy that ends goes from the list with its calls, and its question's
// dialog closes, saying why.
func TestAProxyThatEndsDisappears(t *testing.T) {
	m, _ := newTest(t, true, 80, 24)
	busy(m)
	feed(m, console.Event{Kind: console.ProxyEnded, Proxy: "p1"})
	s := uitest.Text(m.render())
	if m.dialog != nil || strings.Contains(s, "claude-code 2.1 → notes") || strings.Contains(s, "list_notes") || !strings.Contains(s, "1 proxy") ||
		!strings.Contains(s, "the proxy ended") || !strings.Contains(s, "cursor 1.2 → files") {
		t.Fatalf("after p1 ended:\n%s", s)
	}
}
