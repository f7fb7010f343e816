package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/overlays"
)

// The log pane and the help are shared by every server, so a server that
// connects in the background must not size them for its own body: an
// untrusted server on screen has a banner line that a trusted one lacks,
// and the log pane sized for the trusted one pushed the header off screen.
func TestSharedPanesKeepTheSizeOfTheServerOnScreen(t *testing.T) {
	slow, open := gated()
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Untrusted),
		demoChoice("beta", slow, policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	d := drive(t, m)
	d.run(m.Init())
	a, b := server(t, m, "alpha"), server(t, m, "beta")
	d.until("alpha to be ready", func() bool { return ready(a) })
	if m.shown() != a {
		t.Fatalf("on %s, want alpha", m.shown().name())
	}
	want := m.shown().bodyHeight()
	close(open)
	d.until("beta to be ready", func() bool { return ready(b) })
	if m.shown() != a {
		t.Fatalf("beta's answer moved the screen to %s", m.shown().name())
	}
	if m.logPane.Height() != want {
		t.Fatalf("log pane is %d lines high after beta connected, alpha's body is %d", m.logPane.Height(), want)
	}
	d.keys("L")
	lines := strings.Split(screen(m), "\n")
	if len(lines) > 30 || !strings.Contains(screen(m), "untrusted server") {
		t.Fatalf("the log pane overflows alpha's screen (%d lines):\n%s", len(lines), screen(m))
	}
	// Switching to beta sizes the shared panes for beta's body.
	d.keys("esc", "]")
	if m.shown() != b || m.logPane.Height() != m.shown().bodyHeight() {
		t.Fatalf("on %s: log pane %d high, body %d", m.shown().name(), m.logPane.Height(), m.shown().bodyHeight())
	}
}

// When the bar is down to marks, only the server on screen says its state
// in a word; the servers after it keep their marks.
func TestBarMarksAfterTheServerOnScreen(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Trusted),
		demoChoice("gamma", demo.New(), policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	connectNow(t, m)
	e := m.barEntries(detailMark)
	if !strings.Contains(e[0], "alpha 17 tools") {
		t.Errorf("the server on screen lost its word: %q", e[0])
	}
	for _, x := range e[1:] {
		if strings.Contains(x, "tools") {
			t.Errorf("a server after the one on screen is spelled out: %q", x)
		}
	}
}

// A session replaced by R is closed in a command; if mcpsh quits before that
// command has run, Close still closes it, so no server outlives mcpsh.
func TestCloseEndsSessionsBeingRetired(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	connectNow(t, m)
	old := m.servers[0].session
	if cmd := send(m, "R"); cmd == nil {
		t.Fatal("R started nothing")
	}
	// The commands R returned never run: the program quit first. (The
	// connect is marked done, or Close would wait its 5 s for it.)
	close(m.servers[0].connecting.done)
	m.Close()
	select {
	case <-old.Done():
	case <-time.After(patience):
		t.Fatal("the replaced session is still open after Close")
	}
}

// Down to marks, an untrusted server is marked ⚠, not "!", which in the
// tool list means conflicting hints.
func TestBarMarksAnUntrustedServerApartFromConflicts(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Untrusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	connectNow(t, m)
	e := ansi.Strip(m.barEntries(detailMark)[1])
	if !strings.Contains(e, overlays.MarkUntrusted) || strings.Contains(e, overlays.MarkConflict) {
		t.Errorf("the untrusted server's marks: %q", e)
	}
}

// Counts read through units.Plural everywhere: one tool is "1 tool", in
// the header as in the bar.
func TestOneToolIsOneTool(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	connectNow(t, m)
	echo, _ := m.shown().session.Tool("echo")
	m.shown().setTools([]*client.Tool{echo})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	lines := strings.Split(screen(m), "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), " 1 tool") || !strings.Contains(lines[1], "alpha 1 tool ") {
		t.Fatalf("one tool is not counted as one:\n%s", strings.Join(lines[:2], "\n"))
	}
}
