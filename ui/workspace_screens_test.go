package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/overlays"
)

// threeServers is a workspace of three, connected: notes, shared (untrusted)
// and broken (its command does not exist).
func threeServers(t *testing.T) *Model {
	t.Helper()
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow }, LogPath: "/state/mcpsh/sessions/s.jsonl",
		Choices: []Choice{
			demoChoice("notes", demo.New(), policy.Trusted),
			demoChoice("shared", demo.New(), policy.Untrusted),
			brokenChoice(),
		}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	connectNow(t, m)
	if !ready(m.servers[0]) || !ready(m.servers[1]) || !failed(m.servers[2]) {
		t.Fatalf("states: %v %v %v", m.servers[0].mode, m.servers[1].mode, m.servers[2].mode)
	}
	return m
}

// someTraffic gives the server on screen a few messages.
func someTraffic(m *Model) {
	at := fixedNow
	var es []overlays.TrafficEntry
	for i, e := range []client.TraceEntry{
		{Dir: "out", Kind: "request", Method: "initialize", ID: "1", Size: 210},
		{Dir: "in", Kind: "response", Method: "initialize", ID: "1", Size: 731, LatencyMS: 1.4},
		{Dir: "out", Kind: "notification", Method: "notifications/initialized", Size: 54},
		{Dir: "out", Kind: "request", Method: "tools/list", ID: "2", Size: 60},
		{Dir: "in", Kind: "response", Method: "tools/list", ID: "2", Size: 8650, LatencyMS: 3.2},
		{Dir: "out", Kind: "request", Method: "tools/call", ID: "3", Size: 120},
		{Dir: "in", Kind: "error", Method: "tools/call", ID: "3", Size: 90, LatencyMS: 212},
	} {
		e.Time = at.Add(time.Duration(i) * 7 * time.Millisecond)
		e.Server = m.shown().name()
		e.Message = json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, i, e.Method))
		es = append(es, overlays.TrafficEntry{TraceEntry: e})
	}
	m.shown().traffic.Add(es, 0)
}

func TestWorkspaceGoldens(t *testing.T) {
	m := threeServers(t)
	golden(t, "workspace/browse-80x24", m.render())
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	golden(t, "workspace/browse-160x48", m.render())
	send(m, "]", "]")
	golden(t, "workspace/failed-160x48", m.render())
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	golden(t, "workspace/failed-80x24", m.render())
	send(m, "[", "[", "T")
	someTraffic(m)
	golden(t, "workspace/traffic-80x24", m.render())
}

// Every workspace screen fits every size, and follows resizes.
func TestWorkspaceScreensFit(t *testing.T) {
	m := threeServers(t)
	someTraffic(m)
	reset := func() {
		// The traffic pane as the user leaves it: the filter kept, the
		// message closed.
		switch {
		case pane(m) != dialogTraffic:
		case m.shown().traffic.Filtering():
			send(m, "enter")
		case m.shown().traffic.Opened():
			send(m, "esc")
		}
		closeDialogs(m)
		m.shown().mode, m.shown().filtering, m.shown().form = modeBrowse, false, nil
		m.switchTo(0)
		m.askReturn = nil
	}
	screens := []struct {
		name string
		do   func()
	}{
		{"notes", func() {}},
		{"shared (untrusted)", func() { send(m, "]") }},
		{"broken", func() { send(m, "]", "]") }},
		{"traffic", func() { send(m, "T") }},
		{"traffic filter", func() { send(m, "T", "/", "t", "o") }},
		{"traffic open", func() { send(m, "T", "up", "enter") }},
		{"picker", func() { send(m, "W") }},
		{"help", func() { send(m, "?") }},
		{"log", func() { send(m, "L") }},
		{"server output", func() { send(m, "S") }},
		{"form on shared", func() { send(m, "]", "/", "a", "d", "d", "enter", "enter") }},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {64, 20}, {160, 48}, {200, 60}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, s := range screens {
			reset()
			s.do()
			where := fmt.Sprintf("%s at %dx%d", s.name, size[0], size[1])
			screen := m.render()
			checkScreen(t, where, screen, size[0], size[1])
			// The header keeps the server's name (the user's) and its tool count.
			head := strings.SplitN(screen, "\n", 2)[0]
			if m.shown().session != nil && (!strings.Contains(head, " · "+m.shown().name()) || !strings.Contains(head, "17 tools")) {
				t.Errorf("%s: the header lost the name or the tool count: %q", where, head)
			}
		}
	}
}

// A dialog from a server in the background, at every size.
func TestWorkspaceAskScreensFit(t *testing.T) {
	m := threeServers(t)
	for _, size := range [][2]int{{80, 24}, {64, 20}, {160, 48}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		a := formAsk()
		a.srv = m.servers[1]
		m.Update(askMsg{ask: a})
		if m.shown() != m.servers[1] || m.shown().asking() == nil {
			t.Fatalf("the ask did not bring shared on screen")
		}
		checkScreen(t, fmt.Sprintf("ask at %dx%d", size[0], size[1]), m.render(), size[0], size[1])
		m.Update(askGoneMsg{id: a.id})
		m.Update(serverMsg{srv: m.servers[1], msg: askGoneMsg{id: a.id}})
		if m.shown() != m.servers[0] {
			t.Fatalf("after the ask went: on %s", m.shown().name())
		}
	}
}
