package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/pane"
	"github.com/mcpsh/mcpsh/ui/style"
)

// auditPane shows the audit of the whole server (key A): every finding grouped
// by tool, what each host will do with each tool, and directory readiness.
//
// A server of 40,000 tools makes hundreds of thousands of lines, so the pane
// never renders: the audit and its lines for a width are made in a command
// (audit.go), and the pane only holds them and scrolls. After a resize it
// shows the lines it has, cut to the new width, until new ones arrive.
type auditPane struct {
	st     *style.Styles
	keys   *keymap.KeyMap
	report *audit.Report
	view   auditLines // report rendered, for view.width
	body   pane.Pane  // view.lines under the title
	width  int
}

// auditLines is a report rendered for one width.
type auditLines struct {
	width int
	theme int // the Styles.Generation they were drawn with
	lines []string
}

func newAuditPane(st *style.Styles, keys *keymap.KeyMap) *auditPane {
	return &auditPane{st: st, keys: keys}
}

// SetSize only records the size: re-rendering for a new width is a command
// (Model.auditResized).
func (p *auditPane) SetSize(width, height int) {
	p.width = width
	p.body.SetSize(width, height-1) // the title takes a line
}

// SetReport shows a finished audit and its lines, or nil while one runs.
func (p *auditPane) SetReport(r *audit.Report, v auditLines) {
	p.report, p.view = r, v
	p.body.SetLines(v.lines)
	p.body.ScrollTo(0)
}

// setLines swaps in the report rendered for another width, keeping the place.
func (p *auditPane) setLines(v auditLines) {
	p.view = v
	p.body.SetLines(v.lines)
}

// stale reports whether the lines on screen were rendered for another width.
func (p *auditPane) stale() bool {
	return p.report != nil && p.width > 0 && (p.view.width != p.width || p.view.theme != p.st.Generation())
}

// renderAudit renders r for width. It is slow for a large server (a line per
// finding and per tool, each measured): commands call it, Update never does.
func renderAudit(r *audit.Report, width int, st *style.Styles) auditLines {
	if r == nil || width <= 0 {
		return auditLines{width: width, theme: st.Generation()}
	}
	var b strings.Builder
	r.WriteText(&b, width, audit.Paint{
		Severity: func(s audit.Severity, t string) string {
			switch s {
			case audit.Error:
				return st.Error.Render(t)
			case audit.Warning:
				return st.Warning.Render(t)
			}
			return st.Muted.Render(t)
		},
		Dim:  func(t string) string { return st.Muted.Render(t) },
		Bold: func(t string) string { return st.Title.Render(t) },
	})
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = termtext.Truncate(l, width)
	}
	return auditLines{width: width, theme: st.Generation(), lines: lines}
}

// Update scrolls: by line, page, to the top or bottom, or by the mouse wheel.
func (p *auditPane) Update(msg tea.Msg) tea.Cmd {
	p.body.Scroll(msg, p.keys)
	return nil
}

// View draws the title and the lines on screen, cut to the width: after a
// resize they may be from a wider render, until the new one arrives.
func (p *auditPane) View(spin string) string {
	title := p.st.Title.Render("Audit") + " " + p.st.Muted.Render("annotation QA of every tool (mcpsh audit prints the same)")
	if p.report == nil {
		return title + "\n\n" + fmt.Sprintf("  %s auditing…", spin)
	}
	return strings.Join(append([]string{title}, p.body.Fitted()...), "\n")
}
