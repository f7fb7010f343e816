package ui

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
)

// A workspace of three in-process servers, one slow, and one that cannot
// start, and one misconfigured: the ready one is used while the slow one
// connects, each state shows in the bar, and switching and reconnecting work.
func TestWorkspaceServersConnectInParallel(t *testing.T) {
	alpha := demo.New()
	slow, open := gated()
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow }, Choices: []Choice{
		demoChoice("alpha", alpha, policy.Trusted),
		demoChoice("slow", slow, policy.Trusted),
		brokenChoice(),
		{Name: "misconfigured", Transport: "http", Where: "https://x", Problem: "${TOKEN} is not set"},
	}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	d := drive(t, m)
	d.run(m.Init())
	a, s, b := server(t, m, "alpha"), server(t, m, "slow"), server(t, m, "broken")
	d.until("alpha to be ready and broken to fail", func() bool { return ready(a) && failed(b) })
	if s.mode != modeConnecting || s.session != nil {
		t.Fatalf("the slow server is %v before it answered", s.mode)
	}
	if miss := has(screen(m), "alpha 17 tools", "slow", "connecting", "broken ✗ failed", "misconfigured ✗ unusable"); miss != "" {
		t.Fatalf("the bar lacks %q:\n%s", miss, screen(m))
	}

	// alpha is usable while slow connects.
	d.callTool("list notes")
	d.until("list_notes to run on alpha", func() bool { return alpha.Executions("list_notes") == 1 && m.shown().mode == modeResult })
	if slow.Executions("list_notes") != 0 {
		t.Fatal("the call reached the wrong server")
	}

	// slow answers at last, while alpha is on screen.
	close(open)
	d.until("slow to be ready", func() bool { return ready(s) })
	if m.shown() != a || m.shown().mode != modeResult {
		t.Fatalf("slow's answer changed the screen: on %s, mode %v", m.shown().name(), m.shown().mode)
	}

	// The log pane names each call's server, though every call so far is alpha's.
	d.keys("L")
	row := ""
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, "list_notes") {
			row = l
		}
	}
	if !strings.Contains(row, " alpha ") {
		t.Fatalf("the log row does not name its server: %q\n%s", row, screen(m))
	}
	d.keys("esc")

	// ] goes to slow, with its own tools and selection; [ comes back.
	d.keys("]")
	if m.shown() != s || m.shown().mode != modeBrowse || !strings.Contains(screen(m), "mcpsh-demo 1.0.0") {
		t.Fatalf("]: on %s, mode %v", m.shown().name(), m.shown().mode)
	}
	d.keys("[")
	if m.shown() != a || m.shown().mode != modeResult {
		t.Fatalf("[: on %s, mode %v: alpha's result should still be there", m.shown().name(), m.shown().mode)
	}

	// The broken server shows why, and R tries again.
	d.keys("]", "]")
	if m.shown() != b || !strings.Contains(screen(m), "/nonexistent/mcp-server") {
		t.Fatalf("on %s:\n%s", m.shown().name(), screen(m))
	}
	first := b.connReq
	d.keys("R")
	if b.mode != modeConnecting || b.connReq == first {
		t.Fatalf("R: mode %v", b.mode)
	}
	d.until("broken to fail again", func() bool { return failed(b) })

	// R on a ready server starts a new session; the old one's events are
	// not read further.
	d.keys("[")
	if m.shown() != s {
		t.Fatalf("on %s, want slow", m.shown().name())
	}
	old := s.session
	d.keys("R")
	d.until("slow to reconnect", func() bool { return ready(s) && s.session != old })
	if s.list.Visible() == 0 {
		t.Fatal("no tools after reconnecting")
	}
	// The misconfigured server says so, and R does not try.
	d.keys("]", "]")
	if m.shown().name() != "misconfigured" || !strings.Contains(screen(m), "${TOKEN} is not set") {
		t.Fatalf("on %s:\n%s", m.shown().name(), screen(m))
	}
	if cmd := send(m, "R"); cmd != nil || !strings.Contains(m.shown().status, "cannot be used as configured") {
		t.Fatalf("R on a misconfigured server: %q", m.shown().status)
	}
}

// Answers are routed to the server that asked, whichever is on screen: a
// listing for a server in the background lands in its own list.
func TestWorkspaceRoutesAnswersToTheirServer(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	connectNow(t, m)
	a, b := m.servers[0], m.servers[1]
	// A command made by beta (its listing), answered while alpha is on screen.
	b.listReq = m.nextID()
	msg := b.cmd(listCmd(context.Background(), b.listReq, b.session))()
	if sm, ok := msg.(serverMsg); !ok || sm.srv != b {
		t.Fatalf("the answer is %T, not routed to beta", msg)
	}
	before := a.listGen
	m.Update(msg)
	if a.listGen != before || b.listGen != 2 || m.shown() != a {
		t.Fatalf("listing went to the wrong server: alpha gen %d, beta gen %d", a.listGen, b.listGen)
	}
	if !strings.Contains(b.status, "tools changed") || a.status != "" {
		t.Fatalf("statuses: alpha %q, beta %q", a.status, b.status)
	}
	// In the batch beta's audit makes, the audit's answer is beta's and the
	// spinner's tick, which is not the server's own, is the root's.
	m.switchTo(1)
	var routed, ticks int
	for _, c := range m.shown().openAudit()().(tea.BatchMsg) {
		switch msg := c().(type) {
		case serverMsg:
			if _, ok := msg.msg.(auditDoneMsg); ok && msg.srv == b {
				routed++
			}
		case spinner.TickMsg:
			ticks++
		}
	}
	if routed != 1 || ticks != 1 {
		t.Fatalf("beta's audit: %d answers routed to beta, %d ticks for the root", routed, ticks)
	}
}

// A server not on screen that asks the user for something takes the screen
// with its dialog, says whose screen it took, and gives it back once answered.
func TestWorkspaceAskFromAServerInTheBackground(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Untrusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	connectNow(t, m)
	d := drive(t, m)
	d.run(waitInbox(m.inbox))
	a, b := m.servers[0], m.servers[1]
	got := make(chan *client.ElicitResponse, 1)
	go func() {
		r, _ := m.inbox.elicitFor(b)(context.Background(), &client.ElicitRequest{Server: "beta", Mode: "form", Message: "Tell us about you", Schema: json.RawMessage(featureForm)})
		got <- r
	}()
	d.until("beta's dialog", func() bool { return m.shown() == b && m.shown().asking() != nil })
	if miss := has(screen(m), "beta asks for input", "instead of alpha", "untrusted server", "? 1 ask"); miss != "" {
		t.Fatalf("the screen lacks %q:\n%s", miss, screen(m))
	}
	checkScreen(t, "ask from beta", m.render(), 100, 30)
	d.keys("ctrl+x") // decline
	if r := <-got; r == nil || r.Action != client.ElicitDecline {
		t.Fatalf("beta got %+v", r)
	}
	if m.shown() != a || m.shown().asking() != nil {
		t.Fatalf("after the answer: on %s", m.shown().name())
	}
}

func TestWorkspaceSwitchingKeepsEachServersState(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	connectNow(t, m)
	send(m, "/", "e", "c", "h", "o", "enter")
	send(m, "]")
	if m.shown().filterIn.Value() != "" || m.shown().list.Visible() != 17 {
		t.Fatalf("beta has alpha's filter %q", m.shown().filterIn.Value())
	}
	send(m, "down", "down")
	sel := m.shown().list.Selected().Name
	send(m, "[")
	if m.shown().filterIn.Value() != "echo" || m.shown().list.Selected().Name != "echo" {
		t.Fatalf("alpha lost its filter or selection: %q %s", m.shown().filterIn.Value(), m.shown().list.Selected().Name)
	}
	// W picks by name.
	send(m, "W")
	if pane(m) != dialogServers {
		t.Fatal("W did not open the servers")
	}
	send(m, "b", "e")
	checkScreen(t, "picker", m.render(), 100, 30)
	send(m, "enter")
	if m.shown().name() != "beta" || pane(m) != "" || m.shown().list.Selected().Name != sel {
		t.Fatalf("picked %s, overlay %v", m.shown().name(), pane(m))
	}
}

// A workspace whose first server fails to start opens on the first one that
// is ready, not on the failure; once the user pressed a key, the view stays
// where they are.
func TestWorkspaceOpensOnTheFirstReadyServer(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		brokenChoice(),
		demoChoice("alpha", demo.New(), policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	d := drive(t, m)
	d.run(m.Init())
	b, a := server(t, m, "broken"), server(t, m, "alpha")
	d.until("broken to fail and alpha to be ready", func() bool { return failed(b) && ready(a) })
	if m.shown() != a {
		t.Fatalf("the view opened on %s, not on the first ready server:\n%s", m.shown().name(), screen(m))
	}
	// Back on the failed one by hand, it stays there when alpha reconnects.
	d.keys("[")
	old := a.session
	d.run(a.reconnect())
	d.until("alpha to reconnect", func() bool { return ready(a) && a.session != old })
	if m.shown() != b {
		t.Fatalf("the view left the server the user chose for %s", m.shown().name())
	}
}

// A stdio server that dies while idle is shown as ended, with how, in the
// bar and the header, instead of its tool count; R brings it back.
func TestAServerThatDiesShowsAsEnded(t *testing.T) {
	proxy, state := fixtureChoice(t, "crashy", "proxy")
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{proxy, demoChoice("alpha", demo.New(), policy.Trusted)}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	d := drive(t, m)
	d.run(m.Init())
	c := server(t, m, "crashy")
	d.until("crashy to be ready", func() bool { return ready(c) && m.shown() == c })
	pids := fixture.Lines(state, "pids")
	pid, err := strconv.Atoi(pids[len(pids)-1])
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	d.until("the bar to say crashy ended", func() bool {
		return strings.Contains(screen(m), "crashy ✗ ended")
	})
	head := strings.SplitN(screen(m), "\n", 2)[0]
	if !strings.Contains(head, "✗ ended") || strings.Contains(head, " tools") {
		t.Fatalf("the header still counts the tools: %q", head)
	}
	d.keys("R")
	d.until("crashy to be back", func() bool { return ready(c) })
	if miss := has(screen(m), "crashy "+units.Plural(len(c.list.tools), "tool")); miss != "" || c.ended != "" {
		t.Fatalf("after R the bar lacks %q:\n%s", miss, screen(m))
	}
}
