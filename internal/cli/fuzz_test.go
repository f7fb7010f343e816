package cli

import (
	"slices"
	"strings"
	"testing"
)

// quote writes a word the way a shell would read back as that word.
func quote(w string) string { return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'" }

// FuzzParseScript: any script text parses without panicking, line numbers
// rise, and the words of a line read back the same when quoted again.
func FuzzParseScript(f *testing.F) {
	for _, seed := range []string{
		"list_notes\n",
		"# comment\n\nadd_note title=\"Buy milk\" tags=a,b\n",
		`add_note {"title": "x"}` + "\n",
		"t a='b c' \"d \\\" e\" f\\ g\n",
		"t 'unterminated\n",
		"t \"also\n",
		"\t  spaced   tool   x=1  \r\n",
		"t a\\",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		lines, _ := parseScript("f", strings.NewReader(script))
		last := 0
		for _, l := range lines {
			if l.N <= last || l.Tool == "" || strings.ContainsAny(l.Tool, " \t") {
				t.Fatalf("line %+v after %d", l, last)
			}
			last = l.N
		}
		for _, text := range strings.Split(script, "\n") {
			words, err := splitWords(text)
			if err != nil {
				continue
			}
			var quoted []string
			for _, w := range words {
				quoted = append(quoted, quote(w))
			}
			again, err := splitWords(strings.Join(quoted, " "))
			if err != nil || !slices.Equal(again, words) {
				t.Fatalf("%q split into %q, which quoted reads back as %q (%v)", text, words, again, err)
			}
		}
	})
}
