package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/policy"
)

// selectTool puts the list's cursor on the tool called name.
func selectTool(t *testing.T, m *Model, name string) {
	t.Helper()
	m.list.SetFilter("")
	m.list.Top()
	for range len(m.list.tools) {
		if s := m.list.Selected(); s != nil && s.Name == name {
			return
		}
		m.list.Move(1)
	}
	t.Fatalf("%s is not in the list", name)
}

func TestExampleKeysCallThroughThePolicy(t *testing.T) {
	m, d := connected(t, true, 80, 24)
	get, _ := m.session.Tool("get_note")
	// A read-only tool runs at once with the example's arguments.
	if cmd := m.callWithExample(get, 2); cmd == nil || m.mode != modeRunning {
		t.Fatalf("get_note with example 2: mode %v", m.mode)
	}
	if id := fmt.Sprint(m.running.call.Args["id"]); id != "3" {
		t.Errorf("ran with id %v, want example 2's 3", id)
	}
	m.running, m.mode = nil, modeBrowse
	// A destructive one still asks, and nothing is sent before the answer.
	del, _ := m.session.Tool("delete_note")
	if cmd := m.callWithExample(del, 1); cmd != nil || m.mode != modeConfirm || m.pending == nil {
		t.Fatalf("delete_note with example 1: mode %v", m.mode)
	}
	if fmt.Sprint(m.pending.call.Args["id"]) != "2" || d.Executions("delete_note") != 0 {
		t.Errorf("the dialog holds %v; executions %d", m.pending.call.Args, d.Executions("delete_note"))
	}
	// Declining records the call as declined (nothing is sent), and the form
	// it goes back to holds the example.
	send(m, "n")
	if args, _ := m.form.Args(); m.running == nil || !m.running.call.Declined || fmt.Sprint(args["id"]) != "2" {
		t.Errorf("after n: mode %v, form %v", m.mode, args)
	}
	// An example the tool does not have says so.
	m.mode, m.running = modeBrowse, nil
	if cmd := m.callWithExample(get, 7); cmd != nil || m.mode != modeBrowse || !strings.Contains(m.status, "get_note has 2 input examples") {
		t.Errorf("example 7: mode %v, status %q", m.mode, m.status)
	}
	// A rule that denies the tool refuses it: the call is recorded, never sent.
	m.session.Target.Rules = []policy.Rule{{Pattern: "get_*", Action: policy.Deny}}
	if cmd := m.callWithExample(get, 1); cmd == nil || m.session.Decide(m.running.call).Verdict != policy.Refuse {
		t.Errorf("a denied tool was not refused")
	}
}

func TestEnterRunsAToolWithoutArguments(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	flaky, _ := m.session.Tool("flaky_sync")
	if cmd := m.callTool(flaky); cmd == nil || m.mode != modeRunning {
		t.Errorf("flaky_sync takes no arguments: mode %v, want it running", m.mode)
	}
	m.running, m.mode = nil, modeBrowse
	pop, _ := m.session.Tool("pop_note")
	if cmd := m.callTool(pop); cmd != nil || m.mode != modeConfirm {
		t.Errorf("pop_note is destructive: mode %v, want the dialog", m.mode)
	}
	m.pending, m.mode = nil, modeBrowse
	add, _ := m.session.Tool("add_note")
	if cmd := m.callTool(add); m.mode != modeForm || m.running != nil {
		t.Errorf("add_note takes arguments: mode %v (cmd %v), want its form", m.mode, cmd != nil)
	}
	// Through Update: keyhandlers.go routes enter and 1-9 here.
	send(m, "esc")
	selectTool(t, m, "flaky_sync")
	send(m, "enter")
	if m.mode == modeForm {
		t.Fatal("enter on the list opened the form: it does not reach callTool (keyhandlers.go)")
	}
	if m.mode != modeRunning {
		t.Errorf("enter on flaky_sync: mode %v", m.mode)
	}
	m.running, m.mode = nil, modeBrowse
	selectTool(t, m, "get_note")
	send(m, "1")
	if m.mode != modeRunning || fmt.Sprint(m.running.call.Args["id"]) != "1" {
		t.Errorf("1 on get_note: mode %v", m.mode)
	}
}

func TestUnallowTakesBackAnAllowance(t *testing.T) {
	m := demoList(t, 80, 24) // echo is allowed
	selectTool(t, m, "echo")
	echo := m.list.Selected()
	if !m.sessionAllowed(echo) || !strings.Contains(listShows(m, 40, 22), markAllowed) {
		t.Fatal("echo is not allowed and marked to begin with")
	}
	if b := ansi.Strip(m.footerKeys(m.bindings())); !strings.Contains(b, "u stop") {
		t.Errorf("the footer does not offer u on an allowed tool: %q", b)
	}
	m.onListExtraKey(keyOf("u"))
	if m.sessionAllowed(echo) || strings.Contains(listShows(m, 40, 22), markAllowed) || !strings.Contains(m.status, "echo is no longer allowed") {
		t.Errorf("u: allowed %v, status %q", m.sessionAllowed(echo), m.status)
	}
	m.onListExtraKey(keyOf("u"))
	if !strings.Contains(m.status, "echo is not allowed for this session") {
		t.Errorf("u again: %q", m.status)
	}
	// is:allowed follows.
	m.allowed["echo"] = echo.Hints
	m.list.SetFilter("is:allowed")
	m.onListExtraKey(keyOf("u"))
	if m.list.Visible() != 0 {
		t.Errorf("is:allowed still lists %d tools after u", m.list.Visible())
	}
	// Through Update: keyhandlers.go routes the list's other keys here.
	m.list.SetFilter("")
	selectTool(t, m, "echo")
	m.allowed["echo"] = echo.Hints
	send(m, "u")
	if m.sessionAllowed(echo) {
		t.Fatal("u on the list did not un-allow the tool: it does not reach onListExtraKey (keyhandlers.go)")
	}
}
