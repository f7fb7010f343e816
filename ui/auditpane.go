package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/audit"
)

// auditPane shows the audit of the whole server (key A): every finding grouped
// by tool, what each host will do with each tool, and directory readiness.
//
// A server of 40,000 tools makes hundreds of thousands of lines, so the pane
// never renders: the audit and its lines for a width are made in a command
// (audit.go), and the pane only holds them and scrolls. After a resize it
// shows the lines it has, cut to the new width, until new ones arrive. It
// scrolls by itself rather than through a viewport, whose SetContentLines
// measures every line.
type auditPane struct {
	st            *Styles
	keys          *KeyMap
	report        *audit.Report
	view          auditLines // report rendered, for view.width
	top           int        // first line on screen
	width, height int
}

// auditLines is a report rendered for one width.
type auditLines struct {
	width int
	theme int // Styles.theme they were drawn with
	lines []string
}

func newAuditPane(st *Styles, keys *KeyMap) *auditPane {
	return &auditPane{st: st, keys: keys}
}

// SetSize only records the size: re-rendering for a new width is a command
// (Model.auditResized).
func (p *auditPane) SetSize(width, height int) {
	p.width, p.height = width, height
	p.top = min(p.top, p.maxTop())
}

// SetReport shows a finished audit and its lines, or nil while one runs.
func (p *auditPane) SetReport(r *audit.Report, v auditLines) {
	p.report, p.view, p.top = r, v, 0
}

// setLines swaps in the report rendered for another width, keeping the place.
func (p *auditPane) setLines(v auditLines) {
	p.view = v
	p.top = min(p.top, p.maxTop())
}

// stale reports whether the lines on screen were rendered for another width.
func (p *auditPane) stale() bool {
	return p.report != nil && p.width > 0 && (p.view.width != p.width || p.view.theme != p.st.theme)
}

func (p *auditPane) bodyHeight() int { return max(p.height-1, 0) }

func (p *auditPane) maxTop() int { return max(len(p.view.lines)-p.bodyHeight(), 0) }

// renderAudit renders r for width. It is slow for a large server (a line per
// finding and per tool, each measured): commands call it, Update never does.
func renderAudit(r *audit.Report, width int, st *Styles) auditLines {
	if r == nil || width <= 0 {
		return auditLines{width: width, theme: st.theme}
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
		lines[i] = paneFit(l, width)
	}
	return auditLines{width: width, theme: st.theme, lines: lines}
}

// Update scrolls: by line, page, to the top or bottom, or by the mouse wheel.
func (p *auditPane) Update(msg tea.Msg) tea.Cmd {
	to := p.top
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := p.keys
		switch {
		case key.Matches(msg, k.PageUp):
			to -= max(p.bodyHeight(), 1)
		case key.Matches(msg, k.PageDown):
			to += max(p.bodyHeight(), 1)
		case key.Matches(msg, k.Top):
			to = 0
		case key.Matches(msg, k.Bottom):
			to = p.maxTop()
		case key.Matches(msg, k.ScrollUp):
			to--
		case key.Matches(msg, k.ScrollDown):
			to++
		default:
			return nil
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			to -= 3
		case tea.MouseWheelDown:
			to += 3
		default:
			return nil
		}
	default:
		return nil
	}
	p.top = min(max(to, 0), p.maxTop())
	return nil
}

// View draws the title and the lines on screen, cut to the width: after a
// resize they may be from a wider render, until the new one arrives.
func (p *auditPane) View(spin string) string {
	title := p.st.Title.Render("Audit") + " " + p.st.Muted.Render("annotation QA of every tool (mcpsh audit prints the same)")
	if p.report == nil {
		return title + "\n\n" + fmt.Sprintf("  %s auditing…", spin)
	}
	ls := p.view.lines[min(p.top, len(p.view.lines)):min(p.top+p.bodyHeight(), len(p.view.lines))]
	out := make([]string, 0, len(ls)+1)
	out = append(out, title)
	for _, l := range ls {
		out = append(out, paneFit(l, p.width))
	}
	return strings.Join(out, "\n")
}
