package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// driver runs a model's commands as Bubble Tea would, each on its own
// goroutine, and hands their messages to Update on the test's goroutine when
// the test waits for something. Commands that wait for events wait; the
// spinner's ticks are dropped, as nothing here looks at the spinner.
type driver struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
	done chan struct{}
	// guard is how long until waits before it calls the test hung: 15 s
	// unless a test whose work is long (a listing of 10,000 pages) says more.
	guard time.Duration
}

func drive(t *testing.T, m *Model) *driver {
	t.Helper()
	d := &driver{t: t, m: m, msgs: make(chan tea.Msg, 1024), done: make(chan struct{})}
	t.Cleanup(func() {
		close(d.done)
		m.Close()
	})
	return d
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { d.deliver(cmd()) }()
}

func (d *driver) deliver(msg tea.Msg) {
	if msg == nil {
		return
	}
	if _, ok := msg.(spinner.TickMsg); ok {
		return
	}
	// Batches are run command by command, as Bubble Tea runs them. The
	// view makes no sequences, whose message Bubble Tea keeps to itself: one
	// would fail the test here rather than reach Update, which ignores it.
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			d.run(c)
		}
		return
	}
	if fmt.Sprintf("%T", msg) == fmt.Sprintf("%T", tea.Sequence(tea.Quit, tea.Quit)()) {
		d.t.Errorf("a command gave tea.Sequence's message, which this driver does not run")
		return
	}
	select {
	case d.msgs <- msg:
	case <-d.done:
	}
}

// until handles messages as they come until cond holds, looking again now
// and then for what happens outside the view (a fixture's notes); the
// deadline only guards against a hang, it asserts nothing about speed.
func (d *driver) until(what string, cond func() bool) {
	d.t.Helper()
	guard := d.guard
	if guard == 0 {
		guard = patience
	}
	deadline := time.After(guard)
	again := time.NewTicker(20 * time.Millisecond)
	defer again.Stop()
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.update(msg)
		case <-again.C:
		case <-deadline:
			d.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, screen(d.m))
		}
	}
}

func (d *driver) update(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

func (d *driver) keys(keys ...string) {
	for _, k := range keys {
		d.update(keyOf(k))
	}
}

func (d *driver) typeText(s string) {
	for _, r := range s {
		d.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// gated is a demo server that answers nothing until open is closed: a slow
// server, still connecting while the test uses the others.
func gated() (*demo.Server, chan struct{}) {
	d := demo.New()
	open := make(chan struct{})
	d.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			select {
			case <-open:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	return d, open
}

func demoChoice(name string, d *demo.Server, trust policy.Trust) Choice {
	return Choice{Name: name, Transport: "in-process", Where: "demo", Target: client.Target{Name: name, Kind: client.KindInProcess, InProcess: d.MCP(), Trust: trust}}
}

func brokenChoice() Choice {
	return Choice{Name: "broken", Transport: "stdio", Where: "/nonexistent/mcp-server",
		Target: client.Target{Name: "broken", Kind: client.KindStdio, Command: "/nonexistent/mcp-server", Trust: policy.Trusted}}
}

// server is the workspace's server of that name.
func server(t *testing.T, m *Model, name string) *serverState {
	t.Helper()
	for _, s := range m.servers {
		if s.name() == name {
			return s
		}
	}
	t.Fatalf("no server %q", name)
	return nil
}

func ready(s *serverState) bool  { p, _ := s.phase(); return p == phaseReady }
func failed(s *serverState) bool { p, _ := s.phase(); return p == phaseFailed }

// connectNow connects every usable server of m synchronously, running each
// connect command itself, as the goldens need a fixed state.
func connectNow(t *testing.T, m *Model) {
	t.Helper()
	for _, s := range m.servers {
		if s.unusable() {
			continue
		}
		s.connReq = m.nextID()
		msg := connectCmd(context.Background(), s.connReq, *s.target, &client.Options{}, make(chan struct{}))()
		m.Update(serverMsg{srv: s, msg: msg})
	}
	t.Cleanup(func() {
		for _, s := range m.Sessions() {
			s.Close()
		}
	})
}

// call runs the selected tool of the server on screen: enter, then ctrl+r
// when enter opened a form.
func (d *driver) callTool(filter string) {
	d.keys("/")
	d.typeText(filter)
	d.keys("enter", "enter")
	if d.m.shown().mode == modeForm {
		d.keys("ctrl+r")
	}
}

// unwrap is the answer a server's command carries.
func unwrap(msg tea.Msg) tea.Msg {
	if sm, ok := msg.(serverMsg); ok {
		return sm.msg
	}
	return msg
}

func has(s string, subs ...string) string {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return sub
		}
	}
	return ""
}

// pane is the kind of the root's pane on top (dialogHelp, dialogLog…), or ""
// when none is.
func pane(m *Model) string {
	if d := m.top(); d != nil && d.owner() == nil {
		return d.id()
	}
	return ""
}

// topID is the kind of the dialog on top, or "" when none is.
func topID(m *Model) string {
	if d := m.top(); d != nil {
		return d.id()
	}
	return ""
}

// confirming reports whether s's confirmation is up.
func confirming(s *serverState) bool {
	return s.pending != nil && s.dialogs.of(s, dialogConfirm) != nil
}

// closeDialogs takes every dialog down, as if each was answered or closed.
func closeDialogs(m *Model) {
	m.closePane()
	for _, s := range m.servers {
		s.closeConfirm()
		s.setAsking(nil)
	}
}
