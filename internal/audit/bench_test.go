package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// benchTools makes n tools shaped like a large real server: a spread of hints
// (every combination, contradictions included), a tool in twenty with no
// annotations, one in ten with no title, small groups sharing a title, and
// input examples, one in four of them broken. With sameTitle every tool has
// the same title, the worst case for duplicate-title.
func benchTools(n int, sameTitle bool) []*client.Tool {
	verbs := []string{"list", "get", "create", "update", "delete", "search", "sync", "export", "archive", "send"}
	nouns := []string{"issue", "note", "file", "user", "invoice", "ticket", "message", "record", "report", "page"}
	schema := json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer","minimum":1},"q":{"type":"string"}},"required":["id"]}`)
	tools := make([]*client.Tool, n)
	for i := range tools {
		verb, noun := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		t := &client.Tool{
			Name:        fmt.Sprintf("%s_%s_%d", verb, noun, i),
			Description: fmt.Sprintf("Does %s on a %s in the workspace; tool number %d of a large server.", verb, noun, i),
			InputSchema: schema,
			Examples:    []map[string]any{{"id": float64(i % 4)}},
		}
		if i%20 != 0 {
			t.HasAnnotations = true
			t.Hints = policy.Hints{ReadOnly: policy.Hint(i % 3), Destructive: policy.Hint((i / 3) % 3), Idempotent: policy.Hint((i / 9) % 3), OpenWorld: policy.Hint((i / 27) % 3)}
			t.Declared = map[string]json.RawMessage{}
			for _, f := range policy.Fields {
				if h := t.Hints.Get(f); h.Declared() {
					t.Declared[string(f)] = json.RawMessage(h.String())
				}
			}
		}
		switch {
		case sameTitle:
			t.ToolTitle = "Do it"
		case i%10 == 5:
		case i%7 == 0:
			t.ToolTitle = fmt.Sprintf("%s %s (group %d)", verb, noun, i/21) // a few tools per title
		default:
			t.ToolTitle = fmt.Sprintf("%s %s #%d", verb, noun, i)
		}
		t.Title = policy.DisplayTitle(t.ToolTitle, "", t.Name)
		tools[i] = t
	}
	return tools
}

// BenchmarkAudit is `mcpsh audit` without the connection: every rule on every
// tool, then the text report.
//
//	go test ./internal/audit -run '^$' -bench Audit -benchmem
func BenchmarkAudit(b *testing.B) {
	for _, bc := range []struct {
		name      string
		n         int
		sameTitle bool
	}{
		{"mix/10k", 10000, false},
		{"mix/40k", 40000, false},
		{"sametitle/10k", 10000, true},
		{"sametitle/40k", 40000, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tools := benchTools(bc.n, bc.sameTitle)
			for _, t := range tools {
				t.SchemaErrors() // compiled once per listing in real use; not what is measured
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				New("bench", "stdio", policy.Trusted, tools).WriteText(io.Discard, 100, Paint{})
			}
		})
	}
}

// BenchmarkAuditMarkdown is the Markdown report of the same 40,000 tools.
func BenchmarkAuditMarkdown(b *testing.B) {
	for _, sameTitle := range []bool{false, true} {
		b.Run(fmt.Sprintf("sametitle=%v/40k", sameTitle), func(b *testing.B) {
			r := New("bench", "stdio", policy.Trusted, benchTools(40000, sameTitle))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.WriteMarkdown(io.Discard)
			}
		})
	}
}

// BenchmarkNewChecker is what the TUI's Update pays on every listing of
// 40,000 tools for the detail pane's findings.
func BenchmarkNewChecker(b *testing.B) {
	for _, sameTitle := range []bool{false, true} {
		b.Run(fmt.Sprintf("sametitle=%v/40k", sameTitle), func(b *testing.B) {
			tools := benchTools(40000, sameTitle)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				NewChecker(tools)
			}
		})
	}
}
