package ui

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
)

// benchWorkspace is a workspace of three servers at 120×40, none connected
// yet, a session to a demo server to hand them, and a listing of n tools for
// each (their own slices, as three servers would send).
func benchWorkspace(b *testing.B, n int) (*Model, *client.Session, []*client.Listing) {
	b.Helper()
	var choices []Choice
	for _, name := range []string{"alpha", "beta", "gamma"} {
		choices = append(choices, demoChoice(name, demo.New(), policy.Trusted))
	}
	m := New(context.Background(), Options{Choices: choices})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	s, err := client.Connect(context.Background(), choices[0].Target, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	var ls []*client.Listing
	for range m.servers {
		ls = append(ls, &client.Listing{Tools: manyTools(n)})
	}
	return m, s, ls
}

// arrive hands server i its listing, as its connect command would.
func arrive(m *Model, i int, s *client.Session, l *client.Listing) {
	srv := m.servers[i]
	srv.connReq = m.nextID()
	m.Update(serverMsg{srv: srv, msg: connectedMsg{id: srv.connReq, session: s, listing: l}})
}

// BenchmarkWorkspaceSwitch is ] with 10,000 tools on each of three servers:
// the next server is put on screen and the whole frame drawn. The budget is
// 16 ms: every server's list is prepared once per listing, so a switch only
// swaps which one is drawn.
//
//	go test ./ui -run '^$' -bench 'Workspace' -benchmem
func BenchmarkWorkspaceSwitch(b *testing.B) {
	m, s, ls := benchWorkspace(b, 10000)
	for i, l := range ls {
		arrive(m, i, s, l)
	}
	_ = m.render()
	b.ResetTimer()
	for b.Loop() {
		m.Update(keyOf("]"))
		_ = m.render()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/switch")
}

// BenchmarkWorkspaceFirstFrame is the time from a server's 10,000 tools
// arriving to the first frame drawn with them, while two other servers of
// 10,000 tools each are open. The budget is 50 ms.
func BenchmarkWorkspaceFirstFrame(b *testing.B) {
	m, s, ls := benchWorkspace(b, 10000)
	arrive(m, 1, s, ls[1])
	arrive(m, 2, s, ls[2])
	b.ResetTimer()
	for b.Loop() {
		arrive(m, 0, s, ls[0])
		_ = m.render()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
}

// BenchmarkWorkspaceBackgroundListing is a listing of 10,000 tools arriving
// for a server that is not on screen, and the frame drawn after it (the bar
// says its new count): what the user on another server pays for it.
func BenchmarkWorkspaceBackgroundListing(b *testing.B) {
	m, s, ls := benchWorkspace(b, 10000)
	arrive(m, 0, s, ls[0])
	b.ResetTimer()
	for b.Loop() {
		arrive(m, 2, s, ls[2])
		_ = m.render()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
}

// BenchmarkWorkspaceFilterKeystroke is one keystroke in the filter of the
// server on screen while three servers of 10,000 tools each are open: the
// filter runs on that server's list, the matches are ranked and the frame
// drawn. The budget is 5 ms.
func BenchmarkWorkspaceFilterKeystroke(b *testing.B) {
	m, s, ls := benchWorkspace(b, 10000)
	for i, l := range ls {
		arrive(m, i, s, l)
	}
	m.Update(keyOf("/"))
	keys := []string{"d", "e", "l", "e", "t", "e", "space", "n", "o", "t", "e"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%len(keys) == 0 {
			m.shown().filterIn.SetValue("")
		}
		m.Update(keyOf(keys[i%len(keys)]))
		_ = m.render()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/key")
}
