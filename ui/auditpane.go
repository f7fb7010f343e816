package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/audit"
)

// auditPane shows the audit of the whole server (key A): every finding grouped
// by tool, what each host will do with each tool, and directory readiness. The
// audit itself runs in a command; until its answer arrives the pane says so.
type auditPane struct {
	st            *Styles
	keys          *KeyMap
	vp            viewport.Model
	report        *audit.Report
	width, height int
}

func newAuditPane(st *Styles, keys *KeyMap) *auditPane {
	return &auditPane{st: st, keys: keys, vp: viewport.New()}
}

func (p *auditPane) SetSize(width, height int) {
	resized := width != p.width
	p.width, p.height = width, height
	p.vp.SetWidth(max(width, 0))
	p.vp.SetHeight(max(height-1, 0))
	if resized {
		p.render()
	}
}

// SetReport shows a finished audit, or nil while one runs.
func (p *auditPane) SetReport(r *audit.Report) {
	p.report = r
	p.render()
	p.vp.GotoTop()
}

func (p *auditPane) render() {
	if p.report == nil || p.width <= 0 {
		return
	}
	var b strings.Builder
	p.report.WriteText(&b, p.width, audit.Paint{
		Severity: func(s audit.Severity, t string) string {
			switch s {
			case audit.Error:
				return p.st.Error.Render(t)
			case audit.Warning:
				return p.st.Warning.Render(t)
			}
			return p.st.Muted.Render(t)
		},
		Dim:  func(t string) string { return p.st.Muted.Render(t) },
		Bold: func(t string) string { return p.st.Title.Render(t) },
	})
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = paneFit(l, p.width)
	}
	p.vp.SetContentLines(lines)
}

func (p *auditPane) Update(msg tea.Msg) tea.Cmd {
	paneScroll(&p.vp, p.keys, msg)
	return nil
}

func (p *auditPane) View(spin string) string {
	title := p.st.Title.Render("Audit") + " " + p.st.Muted.Render("annotation QA of every tool (mcpsh audit prints the same)")
	if p.report == nil {
		return title + "\n\n" + fmt.Sprintf("  %s auditing…", spin)
	}
	return title + "\n" + p.vp.View()
}
