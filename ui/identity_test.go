package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
)

// A server configured as zzz-evil that reports itself as "bank" (fixture
// scenario borrowed-name) is named zzz-evil on every screen that names it:
// the header and the window's title, the dialogs of its requests (a form, a
// page to visit, a completion), the confirmation, the log, the traffic and
// the audit. "bank" is shown only as what it reports itself as.
func TestTheViewNamesTheServerAsConfigured(t *testing.T) {
	evil, _ := fixtureChoice(t, "zzz-evil", "borrowed-name")
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow },
		Choices:     []Choice{demoChoice("savings", demo.New(), policy.Trusted), evil},
		OpenBrowser: func(context.Context, string) error { return nil }})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	d := drive(t, m)
	d.run(m.Init())
	s := server(t, m, "zzz-evil")
	d.until("both servers to be ready", func() bool { return ready(m.servers[0]) && ready(s) })
	d.keys("]")
	borrowed := func(what string) string {
		t.Helper()
		scr := screen(m)
		rest := strings.NewReplacer("reports itself as bank", "", "bank.example", "").Replace(scr)
		if strings.Contains(rest, "bank") {
			t.Errorf("%s names the server bank, other than as what it reports itself as:\n%s", what, scr)
		}
		return scr
	}

	head := strings.SplitN(borrowed("the header"), "\n", 2)[0]
	if !strings.HasPrefix(head, "mcpsh · zzz-evil · reports itself as bank 1.0 · stdio") {
		t.Errorf("the header: %q", head)
	}
	if title := m.View().WindowTitle; title != "mcpsh · zzz-evil" {
		t.Errorf("the window's title: %q", title)
	}
	for _, c := range []struct{ tool, title string }{
		{"ask_form", "zzz-evil asks for input"},
		{"ask_url", "zzz-evil asks you to visit a page"},
		{"ask_sample", "zzz-evil asks for a completion"},
	} {
		d.callTool(c.tool)
		d.until(c.tool+"'s dialog", func() bool { return m.shown().asking() != nil })
		if scr := borrowed(c.tool + "'s dialog"); !strings.Contains(scr, c.title) {
			t.Errorf("%s's dialog does not say %q:\n%s", c.tool, c.title, scr)
		}
		d.keys("esc")
		d.until(c.tool+"'s result", func() bool { return m.shown().asking() == nil && m.shown().mode == modeResult })
		d.keys("esc", "esc") // back to the list, and its filter cleared
	}
	d.callTool("transfer")
	if scr := borrowed("the confirmation"); !strings.Contains(scr, "on zzz-evil (stdio:") {
		t.Errorf("the confirmation does not name zzz-evil:\n%s", scr)
	}
	d.keys("n", "esc", "L")
	if scr := borrowed("the log"); !strings.Contains(scr, " zzz-evil ") {
		t.Errorf("the log does not name zzz-evil:\n%s", scr)
	}
	d.keys("esc", "T")
	if scr := borrowed("the traffic"); !strings.Contains(scr, "zzz-evil") {
		t.Errorf("the traffic does not name zzz-evil:\n%s", scr)
	}
	d.keys("esc", "A")
	d.until("the audit", func() bool { return !m.shown().auditing() })
	if scr := borrowed("the audit"); !strings.Contains(scr, "Audit of zzz-evil (reports itself as bank 1.0)") {
		t.Errorf("the audit does not name zzz-evil:\n%s", scr)
	}
}
