package policy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenRules are the rules testdata/rules.golden renders, one at a time, on
// a tool called t.
var goldenRules = []Rule{
	{},
	{"x", Allow},
	{"is:read-only", Allow},
	{"is:destructive", Deny},
	{"is:destructive !t", Deny},
	{"is:open-world", Confirm},
	{"is:implied", Confirm},
	{"is:write", Deny},
}

// TestRulesMatrix renders the decision for every combination of the four
// hints, trust and the rules above, in interactive mode, with the tool's
// facets and the decision's basis. Review a diff of testdata/rules.golden,
// then rerun with -update.
func TestRulesMatrix(t *testing.T) {
	values := []Hint{Absent, False, True}
	var b bytes.Buffer
	fmt.Fprintln(&b, "# ro de id ow | trust | rule | facets | verdict by | reason | basis: hint declared→used source, * decided, ~ not believed, @ matched by the rule, ^ overridden by the rule")
	rows := 0
	for _, ro := range values {
		for _, de := range values {
			for _, id := range values {
				for _, ow := range values {
					h := Hints{ReadOnly: ro, Destructive: de, Idempotent: id, OpenWorld: ow}
					for _, trust := range []Trust{Trusted, Untrusted} {
						for _, rule := range goldenRules {
							r := Request{Tool: "t", Hints: h, Trust: trust, Mode: Interactive, MaxAttempts: 4}
							shown := "-"
							if rule.Action != "" {
								r.Rules, shown = []Rule{rule}, string(rule.Action)+" "+rule.Pattern
							}
							d := Decide(r)
							fmt.Fprintf(&b, "%s %s %s %s | %s | %s | %s | %s %s | %s | %s\n",
								abbr(ro), abbr(de), abbr(id), abbr(ow), trust, shown, h.Facets().Words(),
								d.Verdict, orDash(string(d.By)), d.Reason, basisShort(d.Basis))
							rows++
						}
					}
				}
			}
		}
	}
	if want := 81 * 2 * len(goldenRules); rows != want || len(goldenRules) != 8 {
		t.Fatalf("rendered %d rows, want %d", rows, 81*2*8)
	}
	golden := filepath.Join("testdata", "rules.golden")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./policy -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		gotLines, wantLines := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gotLines) && i < len(wantLines); i++ {
			if gotLines[i] != wantLines[i] {
				t.Fatalf("decisions differ from %s at line %d:\n got: %s\nwant: %s\n(rerun with -update after reviewing)",
					golden, i+1, gotLines[i], wantLines[i])
			}
		}
		t.Fatalf("decisions differ from %s in length: got %d lines, want %d", golden, len(gotLines), len(wantLines))
	}
}

// basisShort renders a basis on one line: "de -→T default*" is
// destructiveHint left out, read as true by the spec's default, decided.
func basisShort(bs []Basis) string {
	short := map[Field]string{FieldReadOnly: "ro", FieldDestructive: "de", FieldIdempotent: "id", FieldOpenWorld: "ow"}
	var parts []string
	for _, b := range bs {
		s := fmt.Sprintf("%s %s→%s %s", short[b.Field], abbr(b.Declared), abbr(HintOf(b.Value)), b.Source)
		if b.Decided {
			s += "*"
		}
		if !b.Believed {
			s += "~"
		}
		if b.Rule != "" && !b.Overridden {
			s += "@"
		}
		if b.Overridden {
			s += "^"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
