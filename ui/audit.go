package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/overlays"
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
	view   overlays.AuditLines
}

// auditCmd audits every tool and renders the report for width, off the UI's
// goroutine: checking examples and schemas of thousands of tools, and wrapping
// the report's lines, takes longer than a frame.
func auditCmd(id, gen, width int, st *style.Styles, server, via string, trust policy.Trust, tools []*client.Tool) tea.Cmd {
	st = st.Copy()
	return func() tea.Msg {
		r := audit.New(server, via, trust, tools)
		return auditDoneMsg{id: id, gen: gen, report: r, view: overlays.RenderAudit(r, width, st)}
	}
}

// renderAuditCmd renders a finished report again, for a new width.
func renderAuditCmd(id, gen, width int, st *style.Styles, r *audit.Report) tea.Cmd {
	st = st.Copy()
	return func() tea.Msg {
		return auditDoneMsg{id: id, gen: gen, report: r, view: overlays.RenderAudit(r, width, st)}
	}
}

// resetAudit starts the audit over for a new listing. It runs in Update on
// every listing: NewChecker only counts titles, and the rest is per tool shown.
func (s *serverState) resetAudit(tools []*client.Tool) {
	s.audit.checker = audit.NewChecker(tools)
	s.audit.findings = map[string][]audit.Finding{}
}

// auditing reports whether the audit pane is waiting for its report.
func (s *serverState) auditing() bool {
	return s.auditShown() && s.auditPane.Report() == nil
}

func (s *serverState) onAuditDone(msg auditDoneMsg) tea.Cmd {
	p := s.auditPane
	switch {
	case msg.id == s.audit.req && msg.gen == s.listGen:
		s.audit.forGen = msg.gen
		p.SetReport(msg.report, msg.view)
	case msg.id == s.audit.renderReq && msg.id != 0:
		s.audit.renderReq = 0
		// A render for a width the pane has since left, or of a report it no
		// longer shows, is dropped; auditRerender asks again if need be.
		if msg.report == p.Report() && msg.gen == s.audit.forGen && msg.view.Width == p.Width() {
			p.SetLines(msg.view)
		}
	default:
		return nil // an answer to a request overtaken by another
	}
	return s.auditRerender()
}

// auditResized is what Update returns after a resize: the pane keeps its lines
// and the report is rendered again, for the new width, in a command.
func (s *serverState) auditResized() tea.Cmd {
	return s.auditRerender()
}

// auditRerender renders the shown report for the pane's width, unless the
// lines fit it already, the pane is not on screen, or a render is in flight
// (its answer comes back here and asks again for the width of that moment).
func (s *serverState) auditRerender() tea.Cmd {
	p := s.auditPane
	if !s.auditShown() || !p.Stale() || s.audit.renderReq != 0 {
		return nil
	}
	s.audit.renderReq = s.nextID()
	return s.cmd(renderAuditCmd(s.audit.renderReq, s.audit.forGen, p.Width(), s.st, p.Report()))
}

// openAudit fills the audit's pane, which the root has just put on screen,
// starting the audit when the current listing has none yet.
func (s *serverState) openAudit() tea.Cmd {
	if s.audit.forGen == s.listGen && s.auditPane.Report() != nil {
		return s.auditRerender() // the terminal may have been resized while it was closed
	}
	s.auditPane.SetReport(nil, overlays.AuditLines{})
	s.audit.req = s.nextID()
	return tea.Batch(s.spinner.Tick, s.cmd(auditCmd(s.audit.req, s.listGen, s.auditPane.Width(), s.st,
		client.Identity(s.name(), s.server), s.target.Via(), s.target.Trust, s.list.tools)))
}

// findingsFor audits one tool, once per listing: Update calls it for the
// tool in the detail pane (prepareFrame), and keeps what it found.
func (s *serverState) findingsFor(t *client.Tool) []audit.Finding {
	f, ok := s.findings(t)
	if !ok && t != nil && s.audit.checker != nil {
		s.audit.findings[t.Name] = f
	}
	return f
}

// findings is what the audit finds in t, and whether it was kept already;
// it keeps nothing, so View may call it.
func (s *serverState) findings(t *client.Tool) ([]audit.Finding, bool) {
	if t == nil || s.audit.checker == nil {
		return nil, true
	}
	if f, ok := s.audit.findings[t.Name]; ok {
		return f, true
	}
	return s.audit.checker.Tool(t), false
}
