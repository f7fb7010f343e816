package cli

import (
	"slices"
	"strings"
	"testing"
)

// quote writes a word the way a shell would read back as that word.
func quote(w string) string { return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'" }

// FuzzParseScript: any script text parses without panicking, line numbers
// rise, every expectation sits between its call and the next, expectations
// and quoted tool names read back the same when written again, and the words
// of a line read back the same when quoted again.
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
		"get_note id=1\n  expect status ok\n  expect text \"Buy \\\"milk\\\"\\n\"\n  expect json .note.tags[0] == \"home\"\n",
		"t\n expect json .[\"a b\"][3].c == {\"x\": [1, 2.5e3, null]}\nexpect status refused\n",
		"expect status ok\n'expect' x=1\n  expect json . == 1 2\n  expect json .a[ == 1\n",
		"t x=<FILL>\nt {\"a\": [\"<FILL>\"]}\nt <FILL>\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		lines, _ := parseScript("f", strings.NewReader(script))
		last := 0
		for i, l := range lines {
			if l.N <= last || l.Tool == "" {
				t.Fatalf("line %+v after %d", l, last)
			}
			last = l.N
			for _, e := range l.Expects {
				if e.Line <= l.N || i+1 < len(lines) && e.Line >= lines[i+1].N {
					t.Fatalf("expectation on line %d of the call on line %d", e.Line, l.N)
				}
				again, err := parseExpect(e.String())
				if err != nil || again.String() != e.String() {
					t.Fatalf("%q reads back as %q (%v)", e.String(), again.String(), err)
				}
			}
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
			if text == "" || strings.ContainsAny(text, "\r\n") {
				continue
			}
			named, errs := parseScript("f", strings.NewReader(quote(text)+" x=1\n"))
			if len(errs) > 0 || len(named) != 1 || named[0].Tool != text {
				t.Fatalf("a tool named %q, quoted, reads back as %+v (%v)", text, named, errs)
			}
		}
	})
}
