package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/tooldetail"
)

var fixedNow = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

// connected returns a model already connected to a fresh demo server, by
// running the connect command itself and handing its answer to Update.
func connected(t *testing.T, noColor bool, w, h int) (*Model, *demo.Server) {
	t.Helper()
	d := demo.New()
	target := &client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: d.MCP(), Trust: policy.Trusted}
	m := New(context.Background(), Options{Target: target, NoColor: noColor, Now: func() time.Time { return fixedNow }, LogPath: "/state/mcpsh/sessions/s.jsonl"})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.shown().connReq = m.nextID()
	msg := connectCmd(context.Background(), m.shown().connReq, *target, &client.Options{}, make(chan struct{}))()
	m.Update(msg)
	t.Cleanup(func() {
		if m.shown().session != nil {
			m.shown().session.Close()
		}
	})
	if m.shown().mode != modeBrowse {
		t.Fatalf("mode %v after connecting: %v", m.shown().mode, m.shown().connErr)
	}
	return m, d
}

func send(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(keyOf(k))
	}
	return cmd
}

// checkScreen asserts the whole screen has exactly h lines of at most w cells.
func checkScreen(t *testing.T, what, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) != h {
		t.Errorf("%s: %d lines, want %d", what, len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("%s: line %d is %d cells wide, more than %d: %q", what, i+1, n, w, ansi.Strip(l))
		}
	}
}

func TestEveryScreenFitsAndFollowsResizes(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	screens := map[string]func(){
		"browse": func() {},
		"filter": func() { send(m, "/", "n", "o", "t", "e") },
		"help":   func() { send(m, "esc", "?") },
		"log":    func() { send(m, "esc", "L") },
		"server": func() { send(m, "esc", "S") },
		"form":   func() { send(m, "esc", "/", "a", "d", "d", "enter", "enter") },
		"confirm": func() {
			send(m, "esc", "esc", "/")
			send(m, strings.Split("delete", "")...)
			send(m, "enter", "enter", "1", "ctrl+r")
		},
	}
	order := []string{"browse", "filter", "help", "log", "server", "form", "confirm"}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {64, 20}, {50, 16}, {200, 60}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, name := range order {
			closeDialogs(m)
			m.shown().mode, m.shown().filtering, m.shown().form = modeBrowse, false, nil
			m.shown().filterIn.SetValue("")
			m.shown().list.SetFilter("")
			screens[name]()
			checkScreen(t, name+" at "+itoa(size[0])+"x"+itoa(size[1]), m.render(), size[0], size[1])
		}
	}
	if !confirming(m.shown()) {
		t.Errorf("the confirm screen was not reached: mode %v", m.shown().mode)
	}
}

func TestTheConfirmDialogOnlyAnswersYNA(t *testing.T) {
	m, d := connected(t, true, 80, 24)
	send(m, "/")
	send(m, strings.Split("delete", "")...)
	send(m, "enter", "enter", "2", "ctrl+r")
	if !confirming(m.shown()) {
		t.Fatalf("mode %v, want the dialog", m.shown().mode)
	}
	for _, k := range []string{"enter", "space", "x", "1", "tab", "q"} {
		if cmd := send(m, k); cmd != nil || !confirming(m.shown()) || m.shown().running != nil {
			t.Fatalf("%q in the dialog did something (mode %v)", k, m.shown().mode)
		}
	}
	if d.Executions("delete_note") != 0 {
		t.Fatal("sent before an answer")
	}
	cmd := send(m, "y")
	if cmd == nil || m.shown().mode != modeRunning || !m.shown().running.call.Approved {
		t.Fatalf("y: mode %v", m.shown().mode)
	}
}

func TestLateAnswersAreDropped(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	before := len(m.shown().list.tools)
	m.shown().listReq = 7
	m.Update(listedMsg{id: 6, listing: &client.Listing{}})
	if len(m.shown().list.tools) != before {
		t.Fatal("an overtaken tools/list answer replaced the list")
	}
	m.Update(callDoneMsg{id: 99, outcome: &client.Outcome{Tool: "ghost"}})
	if len(m.shown().outcomes) != 0 || m.shown().mode != modeBrowse {
		t.Fatal("an answer to no call in flight was taken")
	}
	m.Update(progressMsg{id: 99})
	m.Update(retryMsg{id: 99})
}

func TestNoColorMeansNoColour(t *testing.T) {
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7]);?[0-9;]*m|\x1b\[[0-9;]*[34]8;`)
	m, _ := connected(t, true, 100, 30)
	send(m, "/", "e", "c", "h", "o")
	if s := m.render(); colour.MatchString(s) {
		t.Errorf("NO_COLOR screen has colour codes")
	}
	c, _ := connected(t, false, 100, 30)
	if s := c.render(); !colour.MatchString(s) {
		t.Errorf("the colour screen has no colour codes")
	}
}

func TestMainScreenGolden(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	golden(t, "screen/browse-80x24", m.render())
	send(m, "down", "down", "down", "down", "down", "down")
	if sel := m.shown().list.Selected(); sel == nil || sel.Name != "weather_forecast" {
		t.Fatalf("six downs select %v, want weather_forecast", sel)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	golden(t, "screen/weather-120x30", m.render())
}

func TestDetailGoldens(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	for _, name := range []string{"archive_notes", "echo", "search_notes", "weather_forecast"} {
		tool, _ := m.shown().session.Tool(name)
		golden(t, "detail/"+name+"-60", tooldetail.Render(tool, m.shown().decision(tool), m.shown().findingsFor(tool), 60, m.st))
	}
}

func TestConfirmGolden(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	tool, _ := m.shown().session.Tool("pop_note")
	c := m.shown().newCall(tool, map[string]any{})
	golden(t, "confirm/pop_note-80", renderConfirm(&pendingCall{call: c, decision: m.shown().session.Decide(c)}, "mcpsh-demo (in-process)", 80, m.st, m.keys))
}

func TestRunningGolden(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	tool, _ := m.shown().session.Tool("slow_count")
	r := &runningCall{call: m.shown().newCall(tool, map[string]any{"n": 10}), started: fixedNow.Add(-2500 * time.Millisecond),
		progress: &client.Progress{Progress: 4, Total: 10, Message: "counted to 4"},
		retry:    &client.RetryNotice{Attempt: 1, Of: 4, Failure: policy.ServerError, Error: "server error: busy", Wait: 2 * time.Second}, retryAt: fixedNow.Add(-800 * time.Millisecond)}
	golden(t, "running/slow_count-80", renderRunning(r, "⣾", fixedNow, m.bar, 80, m.st, m.keys))
}

// The picker is gone: configured servers open together as a workspace
// (workspace_test.go).

func TestAuditOverlay(t *testing.T) {
	m, _ := connected(t, true, 100, 30)
	_, cmd := m.Update(keyOf("A"))
	if pane(m) != dialogAudit || cmd == nil || !strings.Contains(m.render(), "auditing") {
		t.Fatalf("A: overlay %v, cmd %v", pane(m), cmd != nil)
	}
	// The audit runs in a command; run it as Bubble Tea would.
	var done auditDoneMsg
	for _, c := range cmd().(tea.BatchMsg) {
		if msg, ok := unwrap(c()).(auditDoneMsg); ok {
			done = msg
		}
	}
	if done.report == nil {
		t.Fatal("no audit came back")
	}
	stale := done
	stale.gen--
	m.Update(stale)
	if m.shown().auditPane.Report() != nil {
		t.Fatal("an audit of an older listing was shown")
	}
	m.Update(done)
	screen := m.render()
	for _, want := range []string{"Audit of demo (reports itself as mcpsh-demo 1.0.0)", "destructive-by-default", "hosts: mcpsh asks"} {
		if !strings.Contains(ansi.Strip(screen), want) {
			t.Errorf("the audit pane lacks %q:\n%s", want, ansi.Strip(screen))
		}
	}
	checkScreen(t, "audit", screen, 100, 30)
	// A second A with the same listing shows the same report without auditing again.
	send(m, "esc")
	if _, cmd := m.Update(keyOf("A")); cmd != nil {
		t.Error("the audit ran again for an unchanged listing")
	}
}
