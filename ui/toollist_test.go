package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
	"github.com/mcpsh/mcpsh/ui/style"
)

func listOf(names ...string) []*client.Tool {
	var tools []*client.Tool
	for i, n := range names {
		h := policy.Hints{ReadOnly: policy.True}
		if i%2 == 1 {
			h = policy.Hints{ReadOnly: policy.False, Destructive: policy.False}
		}
		tools = append(tools, &client.Tool{Name: n, Title: strings.ToUpper(n[:1]) + n[1:], Description: "about " + n, Hints: h})
	}
	return tools
}

func names(l *toolList) []string {
	var out []string
	for _, r := range l.rows {
		if !r.isHeading() {
			out = append(out, l.tools[r.tool].Name)
		}
	}
	return out
}

func TestListGroupsAndFilters(t *testing.T) {
	var l toolList
	l.SetTools(listOf("alpha", "beta", "gamma", "delta"))
	if got := strings.Join(names(&l), ","); got != "alpha,gamma,beta,delta" {
		t.Errorf("grouped order %s", got)
	}
	if l.counts[policy.ClassReadOnly] != 2 || l.counts[policy.ClassWrite] != 2 || l.counts[policy.ClassDestructive] != 0 {
		t.Errorf("counts %v", l.counts)
	}
	l.SetFilter("ABOUT ga")
	if got := strings.Join(names(&l), ","); got != "gamma" {
		t.Errorf("filter: %s", got)
	}
	l.SetFilter("about zzz")
	if l.Selected() != nil || l.Visible() != 0 {
		t.Error("an empty filter result still selects a tool")
	}
	l.Move(1) // must not panic with nothing to select
	l.SetFilter("")
	if l.Visible() != 4 {
		t.Errorf("visible %d", l.Visible())
	}
}

func TestListMovesOverHeadingsAndKeepsItsPlace(t *testing.T) {
	var l toolList
	l.SetTools(listOf("alpha", "beta", "gamma", "delta"))
	l.Move(2) // alpha → gamma → (heading) beta
	if l.Selected().Name != "beta" {
		t.Fatalf("selected %s", l.Selected().Name)
	}
	l.Move(-10)
	if l.Selected().Name != "alpha" {
		t.Errorf("top: %s", l.Selected().Name)
	}
	l.Bottom()
	if l.Selected().Name != "delta" {
		t.Errorf("bottom: %s", l.Selected().Name)
	}
	// A refresh (tools/list_changed) keeps the selection on the same name.
	l.SetTools(listOf("epsilon", "zeta", "alpha", "delta", "eta"))
	if l.Selected().Name != "delta" {
		t.Errorf("after a refresh: %s", l.Selected().Name)
	}
	l.SetTools(listOf("omega"))
	if l.Selected().Name != "omega" {
		t.Errorf("when the selected tool is gone: %v", l.Selected())
	}
}

func TestListKeepsTheCursorOnScreen(t *testing.T) {
	var l toolList
	var many []string
	for i := 0; i < 100; i++ {
		many = append(many, "tool"+itoa(i))
	}
	l.SetTools(listOf(many...))
	st := style.NewStyles(theme.Dark(), true)
	for _, n := range []int{7, 30, 30, -50, 99} {
		l.Move(n)
		view := l.View(st, 30, 10)
		if !strings.Contains(view, "› ") {
			t.Fatalf("after Move(%d) the cursor is off screen:\n%s", n, view)
		}
		if got := len(strings.Split(view, "\n")); got != 10 {
			t.Fatalf("%d lines", got)
		}
	}
}

func TestEventsReachTheServerPaneAndRefreshTheList(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	m.Update(eventMsg{client.Event{Kind: client.EventStderr, Time: fixedNow, Text: "hello from stderr"}})
	if m.shown().serverPane.Len() == 0 {
		t.Fatal("stderr did not reach the server pane")
	}
	before := m.shown().listReq
	_, cmd := m.Update(eventMsg{client.Event{Kind: client.EventToolsChanged, Time: fixedNow}})
	if cmd == nil || m.shown().listReq == before {
		t.Fatal("tools_changed did not ask for the list again")
	}
}

func TestQIsTypedInATextField(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	send(m, "/", "a", "d", "d", "enter", "enter") // add_note's form, focus on title
	cmd := send(m, "q")
	if m.shown().mode != modeForm || isQuit(cmd) {
		t.Fatal("q in a text field quit")
	}
	if args, ok := m.shown().form.Args(); args["title"] != "q" {
		t.Errorf("title %v, want q (ok %v, %v)\n%s", args["title"], ok, m.shown().form.Err(), m.shown().form.View())
	}
	send(m, "esc")
	if m.shown().mode != modeBrowse {
		t.Fatalf("esc: mode %v", m.shown().mode)
	}
	if !isQuit(send(m, "q")) {
		t.Error("q in the list did not quit")
	}
}

// isQuit runs cmd and reports whether it asks the program to quit.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// Notices in a burst cost one more listing, not one each: the first asks,
// the rest wait for its answer and ask once more together.
func TestToolsChangedInABurstListOnceMore(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	changed := eventMsg{client.Event{Kind: client.EventToolsChanged, Time: fixedNow}}
	m.Update(changed)
	first := m.shown().listReq
	for range 3 {
		m.Update(changed)
	}
	if m.shown().listReq != first || !m.shown().relist {
		t.Fatalf("four notices: listing %d (first %d), again %v", m.shown().listReq, first, m.shown().relist)
	}
	// The first listing's answer comes: one more is asked for, and its
	// answer asks for none.
	_, cmd := m.Update(listedMsg{id: first, listing: &client.Listing{Tools: m.shown().session.Tools()}})
	second := m.shown().listReq
	if cmd == nil || second == 0 || second == first || m.shown().relist {
		t.Fatalf("after the first answer: listing %d, again %v, cmd %v", second, m.shown().relist, cmd != nil)
	}
	if _, cmd := m.Update(listedMsg{id: second, listing: &client.Listing{Tools: m.shown().session.Tools()}}); cmd != nil || m.shown().listReq != 0 {
		t.Fatalf("after the second answer: listing %d, cmd %v", m.shown().listReq, cmd != nil)
	}
	if got := m.shown().status; got != "the server's tools changed: 17 tools now" {
		t.Errorf("status %q", got)
	}
}

// At 160 columns with the server sidebar the body is 131 wide: a title of
// 38 cells and its name fit whole beside a detail pane of plenty, rather
// than being cut at two fifths of the body.
func TestLongTitlesFitBesideTheSidebar(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	connectNow(t, m)
	title := "Get details of a specific pull request"
	tool := uitest.Tool(t, `{"name":"get_pull_request","title":"`+title+`","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`)
	m.shown().setTools([]*client.Tool{tool})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	if !m.sidebarShown() {
		t.Fatal("no sidebar at 160 columns")
	}
	if miss := has(screen(m), title+"  get_pull_request"); miss != "" {
		t.Fatalf("the title was cut:\n%s", screen(m))
	}
	if dw := m.shown().detailWidth(); dw < 60 {
		t.Fatalf("the detail pane kept %d columns", dw)
	}
}
