package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/footer"
	"github.com/mcpsh/mcpsh/ui/overlays"
)

// selectTool puts the list's cursor on the tool called name.
func selectTool(t *testing.T, m *Model, name string) {
	t.Helper()
	m.shown().list.SetFilter("")
	m.shown().list.Top()
	for range len(m.shown().list.tools) {
		if s := m.shown().list.Selected(); s != nil && s.Name == name {
			return
		}
		m.shown().list.Move(1)
	}
	t.Fatalf("%s is not in the list", name)
}

func TestExampleKeysCallThroughThePolicy(t *testing.T) {
	m, d := connected(t, true, 80, 24)
	get, _ := m.shown().session.Tool("get_note")
	// A read-only tool runs at once with the example's arguments.
	if cmd := m.shown().callWithExample(get, 2); cmd == nil || m.shown().mode != modeRunning {
		t.Fatalf("get_note with example 2: mode %v", m.shown().mode)
	}
	if id := fmt.Sprint(m.shown().running.call.Args["id"]); id != "3" {
		t.Errorf("ran with id %v, want example 2's 3", id)
	}
	m.shown().running, m.shown().mode = nil, modeBrowse
	// A destructive one still asks, and nothing is sent before the answer.
	del, _ := m.shown().session.Tool("delete_note")
	if cmd := m.shown().callWithExample(del, 1); cmd != nil || !confirming(m.shown()) || m.shown().pending == nil {
		t.Fatalf("delete_note with example 1: mode %v", m.shown().mode)
	}
	if fmt.Sprint(m.shown().pending.call.Args["id"]) != "2" || d.Executions("delete_note") != 0 {
		t.Errorf("the dialog holds %v; executions %d", m.shown().pending.call.Args, d.Executions("delete_note"))
	}
	// Declining records the call as declined (nothing is sent), and the form
	// it goes back to holds the example.
	send(m, "n")
	if args, _ := m.shown().form.Args(); m.shown().running == nil || !m.shown().running.call.Declined || fmt.Sprint(args["id"]) != "2" {
		t.Errorf("after n: mode %v, form %v", m.shown().mode, args)
	}
	// An example the tool does not have says so.
	m.shown().mode, m.shown().running = modeBrowse, nil
	if cmd := m.shown().callWithExample(get, 7); cmd != nil || m.shown().mode != modeBrowse || !strings.Contains(m.shown().status, "get_note has 2 input examples") {
		t.Errorf("example 7: mode %v, status %q", m.shown().mode, m.shown().status)
	}
	// A rule that denies the tool refuses it: the call is recorded, never sent.
	m.shown().session.Target.Rules = []policy.Rule{{Pattern: "get_*", Action: policy.Deny}}
	if cmd := m.shown().callWithExample(get, 1); cmd == nil || m.shown().session.Decide(m.shown().running.call).Verdict != policy.Refuse {
		t.Errorf("a denied tool was not refused")
	}
}

func TestEnterRunsAToolWithoutArguments(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	flaky, _ := m.shown().session.Tool("flaky_sync")
	if cmd := m.shown().callTool(flaky); cmd == nil || m.shown().mode != modeRunning {
		t.Errorf("flaky_sync takes no arguments: mode %v, want it running", m.shown().mode)
	}
	m.shown().running, m.shown().mode = nil, modeBrowse
	pop, _ := m.shown().session.Tool("pop_note")
	if cmd := m.shown().callTool(pop); cmd != nil || !confirming(m.shown()) {
		t.Errorf("pop_note is destructive: mode %v, want the dialog", m.shown().mode)
	}
	m.shown().closeConfirm()
	m.shown().mode = modeBrowse
	add, _ := m.shown().session.Tool("add_note")
	if cmd := m.shown().callTool(add); m.shown().mode != modeForm || m.shown().running != nil {
		t.Errorf("add_note takes arguments: mode %v (cmd %v), want its form", m.shown().mode, cmd != nil)
	}
	// Through Update: keyhandlers.go routes enter and 1-9 here.
	send(m, "esc")
	selectTool(t, m, "flaky_sync")
	send(m, "enter")
	if m.shown().mode == modeForm {
		t.Fatal("enter on the list opened the form: it does not reach callTool (keyhandlers.go)")
	}
	if m.shown().mode != modeRunning {
		t.Errorf("enter on flaky_sync: mode %v", m.shown().mode)
	}
	m.shown().running, m.shown().mode = nil, modeBrowse
	selectTool(t, m, "get_note")
	send(m, "1")
	if m.shown().mode != modeRunning || fmt.Sprint(m.shown().running.call.Args["id"]) != "1" {
		t.Errorf("1 on get_note: mode %v", m.shown().mode)
	}
}

func TestUnallowTakesBackAnAllowance(t *testing.T) {
	m := demoList(t, 80, 24) // echo is allowed
	selectTool(t, m, "echo")
	echo := m.shown().list.Selected()
	if !m.shown().sessionAllowed(echo) || !strings.Contains(listShows(m, 40, 22), overlays.MarkAllowed) {
		t.Fatal("echo is not allowed and marked to begin with")
	}
	if b := ansi.Strip(footer.Render(m.st, m.keys, m.bindings(), m.width)); !strings.Contains(b, "u stop") {
		t.Errorf("the footer does not offer u on an allowed tool: %q", b)
	}
	m.shown().onListExtraKey(keyOf("u"))
	if m.shown().sessionAllowed(echo) || strings.Contains(listShows(m, 40, 22), overlays.MarkAllowed) || !strings.Contains(m.shown().status, "echo is no longer allowed") {
		t.Errorf("u: allowed %v, status %q", m.shown().sessionAllowed(echo), m.shown().status)
	}
	m.shown().onListExtraKey(keyOf("u"))
	if !strings.Contains(m.shown().status, "echo is not allowed for this session") {
		t.Errorf("u again: %q", m.shown().status)
	}
	// is:allowed follows.
	m.shown().allowed["echo"] = echo.Hints
	m.shown().list.SetFilter("is:allowed")
	m.shown().onListExtraKey(keyOf("u"))
	if m.shown().list.Visible() != 0 {
		t.Errorf("is:allowed still lists %d tools after u", m.shown().list.Visible())
	}
	// Through Update: keyhandlers.go routes the list's other keys here.
	m.shown().list.SetFilter("")
	selectTool(t, m, "echo")
	m.shown().allowed["echo"] = echo.Hints
	send(m, "u")
	if m.shown().sessionAllowed(echo) {
		t.Fatal("u on the list did not un-allow the tool: it does not reach onListExtraKey (keyhandlers.go)")
	}
}
