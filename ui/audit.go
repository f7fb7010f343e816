package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/panes"
	"github.com/mcpsh/mcpsh/ui/style"
)

// auditState is the TUI's audit: a checker for the tool in the detail pane,
// prepared once per listing, its findings by tool name, and the whole
// server's report (key A), made by a command for the listing generation forGen.
//
// Auditing and rendering 40,000 tools takes seconds, so both happen in
// commands: Update only swaps in what they return. req is the audit awaited,
// renderReq the re-render for a new width in flight (0 when none; there is
// never more than one, however fast the terminal is resized).
type auditState struct {
	checker   *audit.Checker
	findings  map[string][]audit.Finding
	req       int
	forGen    int
	renderReq int
}

// auditDoneMsg is a report rendered for a width: the whole server's audit made
// for the listing generation gen (id is the audit request), or the shown
// report rendered again after a resize (id is the render request).
type auditDoneMsg struct {
	id     int
	gen    int
	report *audit.Report
	view   panes.AuditLines
}

// auditCmd audits every tool and renders the report for width, off the UI's
// goroutine: checking examples and schemas of thousands of tools, and wrapping
// the report's lines, takes longer than a frame.
func auditCmd(id, gen, width int, st *style.Styles, server, via string, trust policy.Trust, tools []*client.Tool) tea.Cmd {
	st = st.Copy()
	return func() tea.Msg {
		r := audit.New(server, via, trust, tools)
		return auditDoneMsg{id: id, gen: gen, report: r, view: panes.RenderAudit(r, width, st)}
	}
}

// renderAuditCmd renders a finished report again, for a new width.
func renderAuditCmd(id, gen, width int, st *style.Styles, r *audit.Report) tea.Cmd {
	st = st.Copy()
	return func() tea.Msg {
		return auditDoneMsg{id: id, gen: gen, report: r, view: panes.RenderAudit(r, width, st)}
	}
}

// resetAudit starts the audit over for a new listing. It runs in Update on
// every listing: NewChecker only counts titles, and the rest is per tool shown.
func (m *Model) resetAudit(tools []*client.Tool) {
	m.audit.checker = audit.NewChecker(tools)
	m.audit.findings = map[string][]audit.Finding{}
}

// auditing reports whether the audit pane is waiting for its report.
func (m *Model) auditing() bool {
	return m.overlay == overlayAudit && m.auditPane.Report() == nil
}

func (m *Model) onAuditDone(msg auditDoneMsg) tea.Cmd {
	p := m.auditPane
	switch {
	case msg.id == m.audit.req && msg.gen == m.listGen:
		m.audit.forGen = msg.gen
		p.SetReport(msg.report, msg.view)
	case msg.id == m.audit.renderReq && msg.id != 0:
		m.audit.renderReq = 0
		// A render for a width the pane has since left, or of a report it no
		// longer shows, is dropped; auditRerender asks again if need be.
		if msg.report == p.Report() && msg.gen == m.audit.forGen && msg.view.Width == p.Width() {
			p.SetLines(msg.view)
		}
	default:
		return nil // an answer to a request overtaken by another
	}
	return m.auditRerender()
}

// auditResized is what Update returns after a resize: the pane keeps its lines
// and the report is rendered again, for the new width, in a command.
func (m *Model) auditResized() tea.Cmd {
	return m.auditRerender()
}

// auditRerender renders the shown report for the pane's width, unless the
// lines fit it already, the pane is not on screen, or a render is in flight
// (its answer comes back here and asks again for the width of that moment).
func (m *Model) auditRerender() tea.Cmd {
	p := m.auditPane
	if m.overlay != overlayAudit || !p.Stale() || m.audit.renderReq != 0 {
		return nil
	}
	m.audit.renderReq = m.nextID()
	return m.cmd(renderAuditCmd(m.audit.renderReq, m.audit.forGen, p.Width(), m.st, p.Report()))
}

// openAudit shows the audit of the whole server, starting it when the
// current listing has none yet.
func (m *Model) openAudit() tea.Cmd {
	m.overlay = overlayAudit
	if m.audit.forGen == m.listGen && m.auditPane.Report() != nil {
		return m.auditRerender() // the terminal may have been resized while it was closed
	}
	m.auditPane.SetReport(nil, panes.AuditLines{})
	m.audit.req = m.nextID()
	return tea.Batch(m.spinner.Tick, m.cmd(auditCmd(m.audit.req, m.listGen, m.auditPane.Width(), m.st,
		client.Identity(m.name(), m.server), m.target.Via(), m.target.Trust, m.list.tools)))
}

// findingsFor audits one tool, once per listing: Update calls it for the
// tool in the detail pane (prepareFrame), and keeps what it found.
func (m *Model) findingsFor(t *client.Tool) []audit.Finding {
	f, ok := m.findings(t)
	if !ok && t != nil && m.audit.checker != nil {
		m.audit.findings[t.Name] = f
	}
	return f
}

// findings is what the audit finds in t, and whether it was kept already;
// it keeps nothing, so View may call it.
func (m *Model) findings(t *client.Tool) ([]audit.Finding, bool) {
	if t == nil || m.audit.checker == nil {
		return nil, true
	}
	if f, ok := m.audit.findings[t.Name]; ok {
		return f, true
	}
	return m.audit.checker.Tool(t), false
}
