package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// A server whose names, titles, descriptions, serverInfo, stderr, log and
// answers are made of characters terminals count differently from Go's
// tables (fixture scenario widths): every pane of every screen they reach
// is drawn at the width it measures, by the three measures (clusters,
// characters, and tmux's own, measured table), and fits. Before termtext
// settled widths, a tool description of soft hyphens and Arabic number
// signs drew past the tool list into the detail, the dialog and the header.
func TestSuspectWidthsStayInTheirPanes(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			c, _ := fixtureChoice(t, "widths", "widths")
			other, _ := fixtureChoice(t, "other", "plain")
			m := New(context.Background(), Options{Now: func() time.Time { return fixedNow }, Choices: []Choice{c, other}})
			m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			d := drive(t, m)
			d.run(m.Init())
			d.until("the widths server to list its tools", func() bool { return ready(m.servers[0]) && ready(m.servers[1]) })
			fits := func(what string) {
				t.Helper()
				t.Run(what, func(t *testing.T) { assertFits(t, m.render(), w, h) })
			}
			fits("browse")
			for i := range fixture.Suspect {
				fits(fmt.Sprintf("tool %d (%s) in the detail", i, fixture.Suspect[i].Class))
				d.keys("down")
			}
			d.keys("/")
			d.typeText(strings.Repeat("\u00ad", 3))
			fits("filtering")
			d.keys("esc", "home", "enter")
			if !confirming(m.shown()) {
				t.Fatalf("enter on a destructive tool: mode %v, want the confirmation", m.shown().mode)
			}
			fits("the confirmation dialog")
			events := m.shown().serverPane.Len()
			d.keys("y")
			d.until("the call's result, stderr and log", func() bool { return m.shown().mode == modeResult && m.shown().serverPane.Len() >= events+2 })
			fits("the result")
			d.keys("v")
			fits("the result's raw JSON")
			d.keys("L")
			fits("the log pane")
			d.keys("enter")
			fits("a call opened in the log pane")
			d.keys("esc", "esc", "S")
			fits("the server pane")
			d.keys("home")
			fits("the server pane's top")
			d.keys("esc", "T")
			fits("the traffic pane")
			d.keys("enter")
			fits("a message opened in the traffic pane")
			d.keys("esc", "esc", "W")
			fits("the server picker")
			d.keys("esc", "A")
			d.until("the audit", func() bool { return !m.shown().auditing() })
			fits("the audit")
		})
	}
}
