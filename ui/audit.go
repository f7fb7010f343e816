package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/policy"
)

// auditState is the TUI's audit: a checker for the tool in the detail pane,
// prepared once per listing, its findings by tool name, and the whole
// server's report (key A), made by a command for the listing generation for.
type auditState struct {
	checker  *audit.Checker
	findings map[string][]audit.Finding
	req      int
	forGen   int
}

// auditDoneMsg is the whole server's audit, made for the listing generation gen.
type auditDoneMsg struct {
	id     int
	gen    int
	report *audit.Report
}

// auditCmd audits every tool off the UI's goroutine: checking examples and
// schemas of thousands of tools takes longer than a frame.
func auditCmd(id, gen int, server, via string, trust policy.Trust, tools []*client.Tool) tea.Cmd {
	return func() tea.Msg {
		return auditDoneMsg{id: id, gen: gen, report: audit.New(server, via, trust, tools)}
	}
}

// resetAudit starts the audit over for a new listing.
func (m *Model) resetAudit(tools []*client.Tool) {
	m.audit.checker = audit.NewChecker(tools)
	m.audit.findings = map[string][]audit.Finding{}
}

// auditing reports whether the audit pane is waiting for its report.
func (m *Model) auditing() bool {
	return m.overlay == overlayAudit && m.auditPane.report == nil
}

func (m *Model) onAuditDone(msg auditDoneMsg) tea.Cmd {
	if msg.id == m.audit.req && msg.gen == m.listGen {
		m.audit.forGen = msg.gen
		m.auditPane.SetReport(msg.report)
	}
	return nil
}

// openAudit shows the audit of the whole server, starting it when the
// current listing has none yet.
func (m *Model) openAudit() tea.Cmd {
	m.overlay = overlayAudit
	if m.audit.forGen == m.listGen && m.auditPane.report != nil {
		return nil
	}
	m.auditPane.SetReport(nil)
	m.audit.req = m.nextID()
	return tea.Batch(m.spinner.Tick, auditCmd(m.audit.req, m.listGen, m.serverName(), m.target.Via(), m.target.Trust, m.list.tools))
}

// findingsFor audits one tool, once per listing.
func (m *Model) findingsFor(t *client.Tool) []audit.Finding {
	if t == nil || m.audit.checker == nil {
		return nil
	}
	f, ok := m.audit.findings[t.Name]
	if !ok {
		f = m.audit.checker.Tool(t)
		m.audit.findings[t.Name] = f
	}
	return f
}
