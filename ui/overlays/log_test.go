package overlays

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

func TestLogPaneGolden(t *testing.T) {
	for _, w := range []int{80, 100} {
		got := renderLogEntries("/home/ada/.local/state/mcpsh/sessions/2025-03-14T09-26-53-weather.jsonl", uitest.LogOutcomes(), w, monoStyles)
		uitest.AssertWidth(t, "log", got, w)
		uitest.Golden(t, fmt.Sprintf("logpane/calls-%d", w), got)
	}
	uitest.Golden(t, "logpane/empty-no-log-80", renderLogEntries("", nil, 80, monoStyles))
}

func TestLogPaneRows(t *testing.T) {
	got := ansi.Strip(renderLogEntries("/tmp/s.jsonl", uitest.LogOutcomes(), 100, monoStyles))
	lines := strings.Split(got, "\n")
	if !strings.HasPrefix(lines[0], "Session log  /tmp/s.jsonl") {
		t.Errorf("title line %q", lines[0])
	}
	for _, want := range []string{
		"  09:26:53  ok                        get_forecast  Weather forecast  1 attempt   143 ms\n",
		"  09:27:05  ok          ◆ open-world  search_web    Search the web    1 attempt    1.2 s\n",
		"  09:28:08  failed      ◆ open-world  fetch_page    Fetch a web page  3 attempts  31.0 s\n",
		"            ↳ no answer or progress within 30s (the server was told to cancel); gave up: another at…\n",
		"  10:26:53  refused                   delete_file   Delete a file     not sent\n",
		"            ↳ destructive tool and nobody to ask: pass --yes to run it\n",
		"  10:27:54  tool error",
		"  10:28:33  cancelled",
		"            ↳ cancelled by the user",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	narrow := ansi.Strip(renderLogEntries("", uitest.LogOutcomes(), 60, monoStyles))
	if strings.Contains(narrow, "open-world") || !strings.Contains(narrow, "◆") {
		t.Errorf("a narrow log should mark open-world calls with the glyph alone:\n%s", narrow)
	}
	if !strings.Contains(narrow, "not logging (--no-log)") {
		t.Errorf("log off is not said:\n%s", narrow)
	}
	// The time is the call's own, in its own zone: no clock is read.
	o := uitest.OKOutcome()
	o.Time = time.Date(2025, 3, 14, 23, 59, 58, 0, time.FixedZone("X", -7*3600))
	if got := ansi.Strip(renderLogEntries("", []*client.Outcome{o}, 80, monoStyles)); !strings.Contains(got, "  23:59:58  ok") {
		t.Errorf("time not from the outcome's own zone:\n%s", got)
	}
}

func TestLogPaneEmpty(t *testing.T) {
	got := ansi.Strip(renderLogEntries("/x.jsonl", nil, 80, monoStyles))
	if !strings.Contains(got, "no calls yet") {
		t.Errorf("empty log: %q", got)
	}
}

func TestLogPaneHostileAndWidths(t *testing.T) {
	hostile := uitest.HostileOutcome()
	hostile.Status, hostile.Error = client.StatusFailed, "failed "+hostile.Title
	refused := uitest.RefusedOutcome()
	refused.Reason = hostile.Title + strings.Repeat(" very long", 1000)
	entries := append(uitest.LogOutcomes(), hostile, refused, nil)
	path := "/tmp/\x1b]0;x\x07" + strings.Repeat("dir/", 40) + "session.jsonl"
	for w := 1; w <= 140; w += 3 {
		plain := renderLogEntries(path, entries, w, plainStyles())
		uitest.AssertNoEscapes(t, fmt.Sprint("log ", w), plain)
		uitest.AssertWidth(t, fmt.Sprint("log ", w), plain, w)
		colour := renderLogEntries(path, entries, w, style.NewStyles(theme.Dark(), false))
		uitest.AssertTerminalSafe(t, fmt.Sprint("log colour ", w), colour)
		uitest.AssertWidth(t, fmt.Sprint("log colour ", w), colour, w)
	}
	// A long path keeps its end, the file name.
	got := ansi.Strip(renderLogEntries(path, nil, 60, monoStyles))
	if !strings.Contains(got, "session.jsonl") {
		t.Errorf("long path lost its file name:\n%s", got)
	}
}

func TestLogPaneViewFollowsNewest(t *testing.T) {
	p := NewLog(monoStyles, keymap.Default())
	p.SetSize(80, 6)
	var entries []*client.Outcome
	for i := range 30 {
		o := uitest.OKOutcome()
		o.Tool = fmt.Sprintf("tool_%02d", i)
		entries = append(entries, o)
	}
	p.SetEntries("/tmp/s.jsonl", entries[:20])
	view := ansi.Strip(p.View())
	if n := strings.Count(view, "\n") + 1; n != 6 {
		t.Fatalf("view is %d lines, want 6:\n%s", n, view)
	}
	uitest.AssertWidth(t, "log view", view, 80)
	if !strings.HasPrefix(view, "Session log") || !strings.Contains(view, "tool_19") || strings.Contains(view, "tool_00") {
		t.Errorf("view does not start at the newest calls:\n%s", view)
	}
	// New calls arrive while at the bottom: still at the bottom.
	p.SetEntries("/tmp/s.jsonl", entries[:25])
	if view := p.View(); !strings.Contains(view, "tool_24") {
		t.Errorf("newest call not shown:\n%s", view)
	}
	// Scrolled up, the view stays where the user put it.
	p.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	p.SetEntries("/tmp/s.jsonl", entries)
	view = p.View()
	if !strings.Contains(view, "tool_00") || strings.Contains(view, "tool_29") {
		t.Errorf("scrolled-up view moved:\n%s", view)
	}
	p.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	if view := p.View(); !strings.Contains(view, "tool_29") {
		t.Errorf("G does not show the newest call:\n%s", view)
	}
	p.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	if o := p.outcomes[p.shown[p.cursor]]; o.Tool != "tool_27" {
		t.Errorf("pgup moved the cursor to %s, want half a page up (tool_27)", o.Tool)
	}
	// A resize keeps it working.
	p.SetSize(50, 3)
	view = p.View()
	if n := strings.Count(view, "\n") + 1; n > 3 {
		t.Errorf("view is %d lines, more than 3", n)
	}
	uitest.AssertWidth(t, "resized log view", view, 50)
}

func TestLogPaneFitsEverySize(t *testing.T) {
	for _, size := range [][2]int{{50, 16}, {80, 24}, {120, 40}, {160, 48}} {
		p := NewLog(monoStyles, keymap.Default())
		p.SetSize(size[0], size[1])
		calls := append(uitest.LogOutcomes(), uitest.HostileOutcome())
		p.SetEntries("/x.jsonl", calls)
		for _, keys := range [][]string{nil, {"enter"}, {"esc", "f", "o"}, {"/", "x"}} {
			for _, k := range keys {
				p.Update(uitest.Key(k))
			}
			view := p.View()
			uitest.AssertFits(t, view, size[0], size[1])
			uitest.AssertTerminalSafe(t, "log", view)
		}
	}
	// Nothing logged yet.
	p := NewLog(monoStyles, keymap.Default())
	p.SetSize(80, 10)
	p.SetEntries("", []*client.Outcome{})
	p.Update(uitest.Key("enter"))
	if p.open != nil || !strings.Contains(ansi.Strip(p.View()), "no calls yet") {
		t.Errorf("empty log:\n%s", ansi.Strip(p.View()))
	}
	p.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
}
