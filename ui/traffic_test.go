package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
)

// The traffic pane shows every message of the session with the server on
// screen: the handshake, the listing and a call with its latency; it filters
// by method, opens one pretty-printed and copies it.
func TestTrafficPane(t *testing.T) {
	alpha, beta := demo.New(), demo.New()
	var traced []client.TraceEntry // Options.Client.Trace (--trace) still hears everything
	traceCh := make(chan client.TraceEntry, 4096)
	// Pinned to 2025-11-25, the handshake is initialize (2026-07-28's is
	// server/discover).
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow },
		Client:  client.Options{ProtocolVersion: "2025-11-25", Trace: func(e client.TraceEntry) { traceCh <- e }},
		Choices: []Choice{demoChoice("alpha", alpha, policy.Trusted), demoChoice("beta", beta, policy.Trusted)}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	d := drive(t, m)
	d.run(m.Init())
	a, b := m.servers[0], m.servers[1]
	d.until("both servers", func() bool { return ready(a) && ready(b) })
	d.callTool("list notes")
	d.until("the call's result", func() bool { return m.shown().mode == modeResult })
	d.keys("T")
	if pane(m) != dialogTraffic {
		t.Fatal("T did not open the traffic pane")
	}
	answered := func() bool {
		for _, e := range a.traffic.Entries() {
			if e.Method == "tools/call" && e.Kind == "response" {
				return true
			}
		}
		return false
	}
	d.until("the call's answer on the wire", answered)
	s := screen(m)
	if miss := has(s, "Traffic  alpha", "→ request", "initialize", "tools/list", "tools/call", "← response", " ms"); miss != "" {
		t.Fatalf("the pane lacks %q:\n%s", miss, s)
	}
	for _, e := range a.traffic.Entries() {
		if e.Method == "tools/call" && e.Kind == "response" && e.LatencyMS <= 0 {
			t.Errorf("no latency on the tools/call answer: %+v", e.TraceEntry)
		}
		if e.Server != "alpha" {
			t.Errorf("alpha's pane has a message of %q", e.Server)
		}
	}
	if beta.Executions("list_notes") != 0 || len(b.traffic.Entries()) == 0 {
		t.Fatalf("beta: %d calls, %d messages", beta.Executions("list_notes"), len(b.traffic.Entries()))
	}
	for range len(traceCh) {
		traced = append(traced, <-traceCh)
	}
	if len(traced) < len(a.traffic.Entries())+len(b.traffic.Entries()) {
		t.Errorf("Options.Client.Trace heard %d messages, the panes %d", len(traced), len(a.traffic.Entries())+len(b.traffic.Entries()))
	}
	checkScreen(t, "traffic", m.render(), 100, 30)

	// Filter by method as you type.
	d.keys("/")
	d.typeText("CALL")
	if a.traffic.Matching() != 2 || strings.Contains(screen(m), "tools/list") {
		t.Fatalf("filter: %d shown\n%s", a.traffic.Matching(), screen(m))
	}
	d.keys("enter")
	if miss := has(screen(m), "/ CALL", "2 of "); miss != "" {
		t.Fatalf("the kept filter lacks %q:\n%s", miss, screen(m))
	}
	// ] shows beta's traffic, which has no call.
	d.keys("]")
	if m.shown() != b || pane(m) != dialogTraffic || !strings.Contains(screen(m), "Traffic  beta") {
		t.Fatalf("]: on %s, overlay %v", m.shown().name(), pane(m))
	}
	d.keys("[")

	// Open the answer, pretty-printed.
	d.keys("enter")
	s = screen(m)
	if miss := has(s, "← response tools/call", "answered in", `"jsonrpc": "2.0"`, `"result": {`); miss != "" {
		t.Fatalf("the open message lacks %q:\n%s", miss, s)
	}
	checkScreen(t, "traffic open", m.render(), 100, 30)
	d.keys("down", "pgdown", "G", "g")

	// c copies it with OSC 52.
	_, cmd := m.Update(keyOf("c"))
	if text := clipboardText(t, cmd); !strings.Contains(text, `"jsonrpc": "2.0"`) || !strings.Contains(text, "\n  ") {
		t.Fatalf("copied %q", text)
	}
	if !strings.Contains(m.shown().status, "copied") {
		t.Errorf("status %q", m.shown().status)
	}
	d.keys("esc")
	if a.traffic.Opened() {
		t.Fatal("esc did not close the message")
	}
	d.keys("esc")
	if a.traffic.Filter() != "" || pane(m) != dialogTraffic {
		t.Fatal("esc did not clear the filter first")
	}
	d.keys("esc")
	if pane(m) != "" {
		t.Fatal("esc did not close the pane")
	}
}
