package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// auditAnswer runs the commands a key returned, as Bubble Tea would, and
// returns the audit's answer among their messages.
func auditAnswer(tb testing.TB, cmd tea.Cmd) auditDoneMsg {
	tb.Helper()
	var msgs []tea.Msg
	if cmd != nil {
		msgs = append(msgs, cmd())
	}
	for len(msgs) > 0 {
		msg := msgs[0]
		msgs = msgs[1:]
		switch msg := unwrap(msg).(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				if c != nil {
					msgs = append(msgs, c())
				}
			}
		case auditDoneMsg:
			return msg
		}
	}
	tb.Fatal("no audit came back")
	return auditDoneMsg{}
}

// benchAuditOpen is a model listing n tools with the audit overlay open, and
// the audit's answer, not yet handed to Update.
func benchAuditOpen(b *testing.B, n int) (*Model, auditDoneMsg) {
	m, s, l := benchModel(b, n)
	m.shown().connReq = 1
	m.Update(connectedMsg{id: 1, session: s, listing: l})
	_, cmd := m.Update(keyOf("A"))
	return m, auditAnswer(b, cmd)
}

// BenchmarkAuditDone is Update taking the audit of 40,000 tools: what the user
// waits for after A, once the command has done its work. It must not depend
// on the number of tools.
//
//	go test ./ui -run '^$' -bench 'Audit|SetTools' -benchmem
func BenchmarkAuditDone(b *testing.B) {
	m, done := benchAuditOpen(b, 40000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(done)
	}
}

// BenchmarkAuditResize is Update taking a resize while the audit of 40,000
// tools is on screen, the frame included.
func BenchmarkAuditResize(b *testing.B) {
	m, done := benchAuditOpen(b, 40000)
	m.Update(done)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(tea.WindowSizeMsg{Width: 119 + i%2, Height: 40}) // never the width it had
		_ = m.render()
	}
}

// BenchmarkSetTools is a new listing of 40,000 tools reaching the model (the
// list, and the audit starting over), without the frame.
func BenchmarkSetTools(b *testing.B) {
	m, _, l := benchModel(b, 40000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.shown().setTools(l.Tools)
	}
}
