package overlays

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

func serverEvents() []client.Event {
	at := func(sec int) time.Time { return uitest.PaneTime.Add(time.Duration(sec) * time.Second) }
	return []client.Event{
		{Kind: client.EventStderr, Time: at(0), Text: "weather-server 1.4.2 listening on stdio"},
		{Kind: client.EventStderr, Time: at(0), Text: "\tcache: /var/cache/weather (warm)"},
		{Kind: client.EventLog, Time: at(1), Level: "debug", Logger: "http", Text: "GET https://api.example/v1/forecast?city=Lisbon 200 in 131ms"},
		{Kind: client.EventLog, Time: at(1), Level: "info", Text: "forecast served from cache"},
		{Kind: client.EventLog, Time: at(2), Level: "warning", Logger: "quota", Text: "80% of today's API quota used"},
		{Kind: client.EventLog, Time: at(3), Level: "error", Logger: "http", Text: "upstream returned 503 Service Unavailable; the next calls will be retried by the client if it chooses to, which is a long sentence that wraps"},
		{Kind: client.EventLog, Time: at(3), Level: "critical", Text: "backend pool exhausted\nqueue length 512\nshedding load"},
		{Kind: client.EventStderr, Time: at(4), Text: "panic: runtime error: invalid memory address"},
		{Kind: client.EventReconnected, Time: at(5), Text: "restarted the server (1 of at most 3): the server exited with status 2"},
		{Kind: client.EventToolsChanged, Time: at(6)},
		{Kind: client.EventLog, Time: at(7), Level: "emergency", Logger: "db", Text: `{"disk":"full","free":0}`},
	}
}

func TestServerPaneGolden(t *testing.T) {
	for _, w := range []int{80, 100} {
		p := NewServer(monoStyles, keymap.Default())
		p.SetSize(w, 24)
		for _, e := range serverEvents() {
			p.Append(e)
		}
		got := p.View()
		uitest.AssertWidth(t, "server pane", got, w)
		if n := strings.Count(got, "\n") + 1; n != 24 {
			t.Errorf("view is %d lines, want 24", n)
		}
		uitest.Golden(t, fmt.Sprintf("serverpane/events-%d", w), got)
	}
}

func TestServerPaneStyles(t *testing.T) {
	st := style.NewStyles(theme.Dark(), false)
	p := NewServer(st, keymap.Default())
	p.SetSize(200, 40)
	for _, e := range serverEvents() {
		p.Append(e)
	}
	got := p.View()
	// starts is how a style begins text.
	starts := func(style lipgloss.Style, text string) string {
		r := style.Render("\x00")
		return r[:strings.IndexByte(r, 0)] + text
	}
	for _, want := range []string{
		starts(st.Error, "log:error"),
		starts(st.Error, "[http] upstream returned 503"),
		starts(st.Error, "backend pool exhausted"),
		starts(st.Error, "queue length 512"),
		starts(st.Error, "log:emergency"),
		starts(st.Error, `[db] {"disk":"full","free":0}`),
		starts(st.Warning, "[quota] 80% of today's API quota used"),
		starts(st.Muted, "[http] GET"),
		starts(st.Row, "forecast served from cache"),
		starts(st.Muted, "restarted the server (1 of at most 3): the server exited with status 2"),
		starts(st.Muted, "the server's tool list changed; listing the tools again"),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("pane lacks %q", want)
		}
	}
}

func TestServerPaneEmptyAndUnsized(t *testing.T) {
	p := NewServer(monoStyles, keymap.Default())
	if p.View() != "" {
		t.Error("an unsized pane draws something")
	}
	// Events before the first size are kept and drawn once it is known.
	p.Append(client.Event{Kind: client.EventStderr, Time: uitest.PaneTime, Text: "early"})
	p.SetSize(60, 5)
	if got := p.View(); !strings.Contains(got, "early") {
		t.Errorf("early line lost:\n%s", got)
	}
	q := NewServer(monoStyles, keymap.Default())
	q.SetSize(60, 5)
	if got := ansi.Strip(q.View()); !strings.Contains(got, "nothing from the server yet") {
		t.Errorf("empty pane: %q", got)
	}
}

func TestServerPaneHostile(t *testing.T) {
	const evil = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x1b[0m\rover\x00nul\x07bell\u009b31mC1\u202eevil\x7f\xff"
	events := []client.Event{
		{Kind: client.EventStderr, Time: uitest.PaneTime, Text: evil},
		{Kind: client.EventLog, Time: uitest.PaneTime, Level: "error" + evil, Logger: "lg" + evil, Text: "msg " + evil + "\n" + evil},
		{Kind: client.EventLog, Time: uitest.PaneTime, Level: evil, Text: strings.Repeat("日本語", 100)},
		{Kind: client.EventReconnected, Time: uitest.PaneTime, Text: evil},
		{Kind: client.EventToolsChanged, Time: uitest.PaneTime, Text: evil},
		{Kind: "mystery" + evil, Time: uitest.PaneTime, Text: evil},
		{Kind: client.EventStderr, Time: uitest.PaneTime, Text: strings.Repeat("y", 1<<20)},
	}
	for _, w := range []int{1, 10, 30, 80, 131} {
		for _, plain := range []bool{true, false} {
			st := plainStyles()
			if !plain {
				st = style.NewStyles(theme.Dark(), false)
			}
			p := NewServer(st, keymap.Default())
			p.SetSize(w, 30)
			for _, e := range events {
				p.Append(e)
			}
			p.Update(tea.KeyPressMsg{Code: tea.KeyHome})
			got := p.View()
			if plain {
				uitest.AssertNoEscapes(t, fmt.Sprint("server pane ", w), got)
			}
			uitest.AssertTerminalSafe(t, fmt.Sprint("server pane ", w), got)
			uitest.AssertWidth(t, fmt.Sprint("server pane ", w), got, w)
			if n := strings.Count(got, "\n") + 1; n > 30 {
				t.Errorf("view is %d lines, more than 30", n)
			}
		}
	}
}

func TestServerPaneRing(t *testing.T) {
	p := NewServer(monoStyles, keymap.Default())
	p.SetSize(80, 10)
	for i := range 6000 {
		p.Append(client.Event{Kind: client.EventStderr, Time: uitest.PaneTime, Text: fmt.Sprintf("line %d", i)})
	}
	if p.Len() != serverPaneMax {
		t.Errorf("Len() = %d, want %d", p.Len(), serverPaneMax)
	}
	view := uitest.Text(p.View())
	if !strings.Contains(view, "… 1000 earlier lines dropped") {
		t.Errorf("no notice of dropped lines:\n%s", view)
	}
	if !strings.Contains(view, "line 5999") {
		t.Errorf("newest line not shown:\n%s", view)
	}
	p.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if view := uitest.Text(p.View()); !strings.Contains(view, "line 1000\n") || strings.Contains(view, "line 999\n") {
		t.Errorf("oldest kept line should be line 1000:\n%s", view)
	}
	if n := strings.Count(view, "\n") + 1; n != 10 {
		t.Errorf("view is %d lines, want 10", n)
	}
	// An event with more lines than the pane keeps.
	q := NewServer(monoStyles, keymap.Default())
	q.SetSize(80, 10)
	q.Append(client.Event{Kind: client.EventLog, Level: "info", Time: uitest.PaneTime, Text: strings.Repeat("x\n", 7000) + "last"})
	if q.Len() != serverPaneMax || !strings.Contains(q.View(), "last") || !strings.Contains(q.View(), "2001 earlier lines dropped") {
		t.Errorf("Len() = %d; view:\n%s", q.Len(), q.View())
	}
}

func TestServerPaneFollowsTail(t *testing.T) {
	p := NewServer(monoStyles, keymap.Default())
	p.SetSize(80, 8)
	n := 0
	add := func(k int) {
		for range k {
			p.Append(client.Event{Kind: client.EventStderr, Time: uitest.PaneTime, Text: fmt.Sprintf("line %d", n)})
			n++
		}
	}
	newest := func() string { return fmt.Sprintf("line %d\n", n-1) }
	shows := func(s string) bool { return strings.Contains(uitest.Text(p.View())+"\n", s) }
	press := func(code rune, text string) { p.Update(tea.KeyPressMsg{Code: code, Text: text}) }

	add(50)
	if !shows(newest()) {
		t.Fatalf("not following at first:\n%s", p.View())
	}
	add(5)
	if !shows(newest()) {
		t.Fatalf("does not follow new lines:\n%s", p.View())
	}
	// Scrolled up: new lines do not move the view.
	press(tea.KeyUp, "")
	press('k', "k")
	before := p.View()
	add(5)
	if p.View() != before {
		t.Errorf("view moved while scrolled up:\nbefore:\n%s\nafter:\n%s", before, p.View())
	}
	if shows(newest()) {
		t.Error("newest line shown while scrolled up")
	}
	// Scrolling down to the bottom resumes following.
	for range 20 {
		press(tea.KeyDown, "")
	}
	add(1)
	if !shows(newest()) {
		t.Errorf("following did not resume at the bottom:\n%s", p.View())
	}
	// Page up, then end: following again.
	press(tea.KeyPgUp, "")
	add(3)
	if shows(newest()) {
		t.Error("newest line shown after pgup")
	}
	press(tea.KeyEnd, "")
	add(2)
	if !shows(newest()) {
		t.Errorf("end did not resume following:\n%s", p.View())
	}
}

func TestServerPaneKeepsPlaceWhenDropping(t *testing.T) {
	p := NewServer(monoStyles, keymap.Default())
	p.SetSize(80, 6)
	for i := range serverPaneMax {
		p.Append(client.Event{Kind: client.EventStderr, Time: uitest.PaneTime, Text: fmt.Sprintf("line %d", i)})
	}
	p.View()
	for range 100 {
		p.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	}
	// The header grows by the notice of dropped lines: compare the first line
	// of text.
	top := func() string {
		for _, l := range strings.Split(uitest.Text(p.View()), "\n") {
			if strings.Contains(l, "stderr") {
				return l
			}
		}
		return ""
	}
	before := top()
	for i := range 10 {
		p.Append(client.Event{Kind: client.EventStderr, Time: uitest.PaneTime, Text: fmt.Sprintf("new %d", i)})
	}
	if after := top(); after != before {
		t.Errorf("the view moved when old lines were dropped: %q, then %q", before, after)
	}
}

func TestServerPaneResize(t *testing.T) {
	p := NewServer(monoStyles, keymap.Default())
	p.SetSize(120, 10)
	for _, e := range serverEvents() {
		p.Append(e)
	}
	for _, w := range []int{30, 200, 80} {
		p.SetSize(w, 10)
		got := p.View()
		uitest.AssertWidth(t, fmt.Sprint("resized ", w), got, w)
		if !strings.Contains(got, `{"disk":"full","free":0}`) {
			t.Errorf("newest line lost after resize to %d:\n%s", w, got)
		}
	}
}

// BenchmarkServerPaneAppend is a chatty server filling the pane while it is
// open: 5,000 lines, one message and one frame each.
func BenchmarkServerPaneAppend(b *testing.B) {
	e := client.Event{Kind: client.EventLog, Level: "info", Logger: "worker", Time: uitest.PaneTime,
		Text: "processed batch 1234 of 5000: 200 items, 3 retries, 12ms"}
	for b.Loop() {
		p := NewServer(monoStyles, keymap.Default())
		p.SetSize(100, 40)
		for range serverPaneMax {
			p.Append(e)
			p.View() // Bubble Tea draws after every message
		}
	}
}
