package redact

import (
	"strings"
	"testing"
)

// BenchmarkText runs Text over a large argument (a file's content, say) full of
// pairs, which is what once made it quadratic:
//
//	go test ./internal/redact -run '^$' -bench Text
func BenchmarkText(b *testing.B) {
	for _, u := range []struct{ name, unit string }{
		{"prose", "The quick brown fox jumps over the lazy dog, twice. "},
		{"json", `{"id": 12, "title": "a note", "tags": ["x", "y"], "path": "/home/u/notes"}` + "\n"},
		{"pairs", "a="},
		{"unclosed", `password="`},
		{"secrets", "note: token=x " + ghp + " "},
	} {
		s := strings.Repeat(u.unit, (1<<20)/len(u.unit))
		b.Run(u.name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				Text(s)
			}
		})
	}
}
