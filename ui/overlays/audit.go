package overlays

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// Audit shows the audit of the whole server (key A): every finding grouped
// by tool, what each host will do with each tool, and directory readiness.
//
// A server of 40,000 tools makes hundreds of thousands of lines, so the pane
// never renders: the audit and its lines for a width are made in a command
// (ui's audit.go, with RenderAudit), and the pane only holds them and
// scrolls. After a resize it shows the lines it has, cut to the new width,
// until new ones arrive.
type Audit struct {
	st     *style.Styles
	keys   *keymap.KeyMap
	report *audit.Report
	view   AuditLines  // report rendered, for view.Width
	body   scroll.Pane // view.Lines under the title
	width  int
}

// AuditLines is a report rendered for one width.
type AuditLines struct {
	Width int
	Theme int // the Styles.Generation they were drawn with
	Lines []string
}

// NewAudit is the pane with no report yet.
func NewAudit(st *style.Styles, keys *keymap.KeyMap) *Audit {
	return &Audit{st: st, keys: keys}
}

// SetSize only records the size: re-rendering for a new width is a command
// (the view's auditResized).
func (p *Audit) SetSize(width, height int) {
	p.width = width
	p.body.SetSize(width, height-1) // the title takes a line
}

// SetReport shows a finished audit and its lines, or nil while one runs.
func (p *Audit) SetReport(r *audit.Report, v AuditLines) {
	p.report, p.view = r, v
	p.body.SetLines(v.Lines)
	p.body.ScrollTo(0)
}

// SetLines swaps in the report rendered for another width, keeping the place.
func (p *Audit) SetLines(v AuditLines) {
	p.view = v
	p.body.SetLines(v.Lines)
}

// Report is the audit shown; nil while one runs.
func (p *Audit) Report() *audit.Report { return p.report }

// Width is the pane's width in cells.
func (p *Audit) Width() int { return p.width }

// Rendered is the report as rendered for the lines on screen.
func (p *Audit) Rendered() AuditLines { return p.view }

// Top is the first line on screen.
func (p *Audit) Top() int { return p.body.Top() }

// MaxTop is the last line Top can be.
func (p *Audit) MaxTop() int { return p.body.MaxTop() }

// Stale reports whether the lines on screen were rendered for another width.
func (p *Audit) Stale() bool {
	return p.report != nil && p.width > 0 && (p.view.Width != p.width || p.view.Theme != p.st.Generation())
}

// RenderAudit renders r for width. It is slow for a large server (a line per
// finding and per tool, each measured): commands call it, Update never does.
func RenderAudit(r *audit.Report, width int, st *style.Styles) AuditLines {
	if r == nil || width <= 0 {
		return AuditLines{Width: width, Theme: st.Generation()}
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
	// The report wraps what it says at the width, but not the lines that
	// name a server or a tool, which a long command line or title makes
	// wider: those wrap here, so the counts after them are never cut off.
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if ansi.StringWidth(l) <= width {
			lines = append(lines, l)
			continue
		}
		for _, w := range strings.Split(ansi.Wrap(l, width, ""), "\n") {
			lines = append(lines, termtext.Truncate(w, width))
		}
	}
	return AuditLines{Width: width, Theme: st.Generation(), Lines: lines}
}

// Update scrolls: by line, page, to the top or bottom, or by the mouse wheel.
func (p *Audit) Update(msg tea.Msg) tea.Cmd {
	p.body.Scroll(msg, p.keys)
	return nil
}

// View draws the title and the lines on screen, cut to the width: after a
// resize they may be from a wider render, until the new one arrives.
func (p *Audit) View(spin string) string {
	title := p.st.Title.Render("Audit") + " " + p.st.Muted.Render("annotation QA of every tool (mcpsh audit prints the same)")
	if p.report == nil {
		return title + "\n\n" + fmt.Sprintf("  %s auditing…", spin)
	}
	return strings.Join(append([]string{title}, p.body.Fitted()...), "\n")
}
