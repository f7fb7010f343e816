package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// openAudited is a demo model with the audit overlay open and its report shown.
func openAudited(t *testing.T, w, h int) (*Model, auditDoneMsg) {
	t.Helper()
	m, _ := connected(t, true, w, h)
	_, cmd := m.Update(keyOf("A"))
	done := auditAnswer(t, cmd)
	m.Update(done)
	return m, done
}

// resize hands Update a resize and returns the command it leads to: the
// audit's re-render for the new width, when the audit pane is open.
func resize(m *Model, w, h int) tea.Cmd {
	_, cmd := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return cmd
}

func screenHas(m *Model, s string) bool { return strings.Contains(ansi.Strip(m.render()), s) }

// The audit's lines are rendered by the command: Update only shows them. The
// report is changed after the command ran, so a render in Update would show
// the change.
func TestAuditDoneIsNotRenderedInUpdate(t *testing.T) {
	m, _ := connected(t, true, 100, 30)
	_, cmd := m.Update(keyOf("A"))
	done := auditAnswer(t, cmd)
	done.report.Server = "rendered-in-update"
	m.Update(done)
	if screenHas(m, "rendered-in-update") || !screenHas(m, "Audit of demo (reports itself as mcpsh-demo 1.0.0)") {
		t.Fatalf("Update rendered the report itself:\n%s", ansi.Strip(m.render()))
	}
}

// A resize keeps the lines on screen, cut to the new width, and renders the
// report again in a command.
func TestAuditResizeRendersInACommand(t *testing.T) {
	m, done := openAudited(t, 100, 30)
	done.report.Server = "rendered-again"
	cmd := resize(m, 70, 30)
	if screenHas(m, "rendered-again") {
		t.Fatalf("the resize rendered the report in Update:\n%s", ansi.Strip(m.render()))
	}
	checkScreen(t, "old lines at the new width", m.render(), 70, 30)
	if cmd == nil {
		t.Fatal("the resize started no render")
	}
	m.Update(auditAnswer(t, cmd))
	if !screenHas(m, "Audit of rendered-again") {
		t.Fatalf("the render for the new width was not shown:\n%s", ansi.Strip(m.render()))
	}
	if got := m.shown().auditPane.Rendered().Width; got != 70 {
		t.Errorf("lines for width %d, want 70", got)
	}
	// Back to the width the lines were made for: nothing to do.
	if cmd := resize(m, 70, 40); cmd != nil {
		t.Error("a height change rendered the report again")
	}
}

// Only one render is in flight; an answer for a width the terminal has left is
// dropped, and the pane asks again for the width of that moment.
func TestAuditLateRenderIsDropped(t *testing.T) {
	m, _ := openAudited(t, 100, 30)
	first := resize(m, 70, 30)
	if cmd := resize(m, 90, 30); cmd != nil {
		t.Fatal("a second render started while one was in flight")
	}
	again := m.shown().onAuditDone(auditAnswer(t, first))
	if got := m.shown().auditPane.Rendered().Width; got != 100 {
		t.Fatalf("a render for width 70 was shown at width 90 (lines for %d)", got)
	}
	if again == nil {
		t.Fatal("no render for the width the terminal has now")
	}
	m.Update(auditAnswer(t, again))
	if got := m.shown().auditPane.Rendered().Width; got != 90 {
		t.Errorf("lines for width %d, want 90", got)
	}
	checkScreen(t, "after the renders", m.render(), 90, 30)

	// A render of the report of an older listing is dropped too.
	late := resize(m, 80, 30)
	m.shown().setTools(m.shown().list.tools)
	send(m, "A", "A") // close, and open: a new audit starts for the new listing
	if m.shown().auditPane.Report() != nil {
		t.Fatal("the new listing's audit is not awaited")
	}
	m.Update(auditAnswer(t, late))
	if m.shown().auditPane.Report() != nil {
		t.Error("the render of an older listing's report was shown")
	}
}

// Closed, the pane is not re-rendered; opening it again renders for the
// width of the moment.
func TestAuditClosedIsNotRendered(t *testing.T) {
	m, _ := openAudited(t, 100, 30)
	send(m, "esc")
	if cmd := resize(m, 80, 30); cmd != nil {
		t.Error("a closed pane was rendered again")
	}
	_, cmd := m.Update(keyOf("A"))
	if cmd == nil {
		t.Fatal("opening the pane at a new width started no render")
	}
	m.Update(auditAnswer(t, cmd))
	if got := m.shown().auditPane.Rendered().Width; got != 80 {
		t.Errorf("lines for width %d, want 80", got)
	}
}

func TestAuditPaneScrolls(t *testing.T) {
	m, _ := openAudited(t, 100, 12)
	p := m.shown().auditPane
	if p.MaxTop() == 0 {
		t.Fatal("the demo's audit fits on one screen; the test needs more lines")
	}
	send(m, "G")
	lines := p.Rendered().Lines
	if last := strings.TrimSpace(ansi.Strip(lines[len(lines)-1])); p.Top() != p.MaxTop() || !screenHas(m, last) {
		t.Errorf("G: top %d of %d:\n%s", p.Top(), p.MaxTop(), ansi.Strip(m.render()))
	}
	p.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if p.Top() != p.MaxTop()-3 {
		t.Errorf("wheel up: top %d, want %d", p.Top(), p.MaxTop()-3)
	}
	send(m, "g")
	if p.Top() != 0 || !screenHas(m, "Audit of demo (reports itself as mcpsh-demo 1.0.0)") {
		t.Errorf("g: top %d", p.Top())
	}
	checkScreen(t, "scrolled", m.render(), 100, 12)
}
