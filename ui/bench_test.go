package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
)

// manyTools makes n tools shaped like real ones: titles, hundred-character
// descriptions, a small input schema, a spread of hints.
func manyTools(n int) []*client.Tool {
	words := []string{"list", "get", "create", "update", "delete", "search", "sync", "export", "archive", "send"}
	nouns := []string{"issue", "note", "file", "user", "invoice", "ticket", "message", "record", "report", "page"}
	tools := make([]*client.Tool, n)
	for i := range tools {
		verb, noun := words[i%len(words)], nouns[(i/len(words))%len(nouns)]
		name := fmt.Sprintf("%s_%s_%d", verb, noun, i)
		h := policy.Hints{ReadOnly: policy.Hint(i % 3), Destructive: policy.Hint((i / 3) % 3), Idempotent: policy.Hint((i / 9) % 3), OpenWorld: policy.Hint((i / 27) % 3)}
		tools[i] = &client.Tool{
			Name: name, Title: fmt.Sprintf("%s %s #%d", verb, noun, i), Hints: h, HasAnnotations: true,
			Description: fmt.Sprintf("Does %s on a %s in the workspace; tool number %d of a large server, for the benchmark.", verb, noun, i),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"},"q":{"type":"string"}},"required":["id"]}`),
		}
	}
	return tools
}

// benchModel is a model with a session to the demo server, and a listing of
// n tools to hand it as if the server had sent them.
func benchModel(b *testing.B, n int) (*Model, *client.Session, *client.Listing) {
	b.Helper()
	target := &client.Target{Kind: client.KindInProcess, InProcess: demo.New().MCP(), Trust: policy.Trusted}
	s, err := client.Connect(context.Background(), *target, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	m := New(context.Background(), Options{Target: target})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m, s, &client.Listing{Tools: manyTools(n)}
}

// BenchmarkFilterKeystroke is one keystroke in the filter with 10,000 tools:
// the filter runs, the matches are ranked, and the whole frame is drawn. The
// budget is 5 ms. Each case types its query one key at a time, then starts
// over: plain words, is: terms with words, and a fuzzy word that matches
// only as scattered letters.
//
//	go test ./ui -run '^$' -bench 'Filter|FirstFrame|Memory' -benchmem
func BenchmarkFilterKeystroke(b *testing.B) {
	for _, c := range []struct{ name, query string }{
		{"words", "delete note"},
		{"is", "is:destructive is:open-world note"},
		{"fuzzy", "dlnt iv"},
	} {
		b.Run(c.name, func(b *testing.B) {
			m, s, l := benchModel(b, 10000)
			m.shown().connReq = 1
			m.Update(connectedMsg{id: 1, session: s, listing: l})
			m.Update(keyOf("/"))
			keys := strings.Split(c.query, "")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := keys[i%len(keys)]
				if i%len(keys) == 0 {
					m.shown().filterIn.SetValue("")
				}
				if k == " " {
					k = "space"
				}
				m.Update(keyOf(k))
				_ = m.render()
			}
		})
	}
}

// BenchmarkFirstFrame is the time from the tool list arriving to the first
// frame drawn with it. The budget is 50 ms.
func BenchmarkFirstFrame(b *testing.B) {
	m, s, l := benchModel(b, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.shown().connReq = i + 1
		m.Update(connectedMsg{id: i + 1, session: s, listing: l})
		_ = m.render()
	}
}

// BenchmarkMemory reports what 10,000 tools cost on the heap, as listed by the
// client and then as held by the TUI's list (title, name and search text).
func BenchmarkMemory(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var before, mid, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tools := manyTools(10000)
		runtime.GC()
		runtime.ReadMemStats(&mid)
		var l toolList
		l.SetTools(tools)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(mid.HeapAlloc-before.HeapAlloc)/1e6, "tools-MB")
		b.ReportMetric(float64(after.HeapAlloc-mid.HeapAlloc)/1e6, "list-MB")
		runtime.KeepAlive(tools)
		runtime.KeepAlive(&l)
	}
}
