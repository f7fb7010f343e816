package policy

import (
	"path"
	"strings"
	"testing"
	"unicode"
)

// fuzzHint maps a fuzzed byte onto absent, false, true and one value no server
// can send (3), which must behave as absent.
func fuzzHint(b byte) Hint { return Hint(b % 4) }

// FuzzDecide holds Decide to its safety properties over arbitrary requests,
// nonsense trust, mode, rule actions and patterns included.
func FuzzDecide(f *testing.F) {
	type seed struct {
		ro, de, id, ow                byte
		trust, mode                   string
		yes, readOnly, sessionAllowed bool
		maxAttempts                   int
		tool                          string
		p1, a1, p2, a2                string
	}
	for _, s := range []seed{
		{0, 0, 0, 0, "trusted", "interactive", false, false, false, 4, "t", "", "", "", ""},
		{2, 2, 0, 1, "trusted", "batch", true, true, false, 4, "scan_disk", "", "", "", ""},
		{2, 2, 2, 1, "trusted", "interactive", false, false, false, 4, "scan", "", "", "", ""},
		{2, 1, 1, 1, "untrusted", "batch", true, true, true, 9, "get", "get", "allow", "", ""},
		{1, 2, 2, 1, "trusted", "batch", true, false, false, 4, "fs/delete_file", "*", "deny", "fs/*", "allow"},
		{2, 0, 0, 0, "", "", false, true, false, -3, "a[b", "a[b", "deny", "*", "confirm"},
		{3, 3, 3, 3, "Trusted", "INTERACTIVE", true, false, true, 0, "x\ny", "x?y", "allow", `x\`, "deny"},
		{2, 1, 0, 1, "trusted", "interactive", false, false, true, 1 << 40, "\xff", "[!a]", "confirm", "?", "maybe"},
	} {
		f.Add(s.ro, s.de, s.id, s.ow, s.trust, s.mode, s.yes, s.readOnly, s.sessionAllowed, s.maxAttempts,
			s.tool, s.p1, s.a1, s.p2, s.a2)
	}
	f.Fuzz(func(t *testing.T, ro, de, id, ow byte, trust, mode string, yes, readOnly, sessionAllowed bool,
		maxAttempts int, tool, p1, a1, p2, a2 string) {
		h := Hints{ReadOnly: fuzzHint(ro), Destructive: fuzzHint(de), Idempotent: fuzzHint(id), OpenWorld: fuzzHint(ow)}
		r := Request{Tool: tool, Hints: h, Trust: Trust(trust), Mode: Mode(mode), Preapproved: yes, OnlyReadOnly: readOnly,
			Rules: []Rule{{p1, Action(a1)}, {p2, Action(a2)}}, SessionAllowed: sessionAllowed, MaxAttempts: maxAttempts}
		d := Decide(r)

		if d.Reason == "" || strings.ContainsFunc(d.Reason, func(r rune) bool {
			return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
		}) {
			t.Errorf("reason must be one non-empty line: %q", d.Reason)
		}
		switch d.Verdict {
		case Run:
			if d.By == "" {
				t.Errorf("ran without saying who approved: %+v", d)
			}
		case Ask, Refuse:
			if d.By != "" {
				t.Errorf("%s with an approver: %+v", d.Verdict, d)
			}
		default:
			t.Errorf("verdict %q", d.Verdict)
		}
		if r.Mode != Interactive && d.Verdict == Ask {
			t.Errorf("mode %q asked: %+v", mode, d)
		}
		if r.Trust != Trusted && (d.ReplaySafe || !d.OpenWorld) {
			t.Errorf("trust %q: replay-safe %v, open-world %v", trust, d.ReplaySafe, d.OpenWorld)
		}
		if d.ReplaySafe == (d.NotReplaySafe != "") {
			t.Errorf("replay-safe %v but NotReplaySafe %q", d.ReplaySafe, d.NotReplaySafe)
		}
		for _, rule := range r.Rules {
			if rule.Action == Deny && MatchGlob(rule.Pattern, tool) && d.Verdict != Refuse {
				t.Errorf("deny rule %q matches %q, but the verdict is %s", rule.Pattern, tool, d.Verdict)
			}
		}
		if readOnly && d.Verdict == Run && (r.Trust != Trusted || !h.Effective().ReadOnly) {
			t.Errorf("--read-only ran a %s tool (trust %q): %+v", h.Class(), trust, d)
		}
		if d.MaxAttempts < 1 || !d.ReplaySafe && d.MaxAttempts != 1 {
			t.Errorf("MaxAttempts %d (replay-safe %v)", d.MaxAttempts, d.ReplaySafe)
		}
		if a := d.ApproveBy(ByUser); d.Verdict != Ask && a != d || d.Verdict == Ask && (a.Verdict != Run || a.By != ByUser) {
			t.Errorf("Approve turned %+v into %+v", d, a)
		}
	})
}

// FuzzMatchGlob holds MatchGlob to path.Match wherever the two syntaxes agree
// (see pathComparable), and to a few properties everywhere.
func FuzzMatchGlob(f *testing.F) {
	for _, s := range [][2]string{
		{"*", "fs/delete_file"}, {"delete_*", "delete_all"}, {"a?c", "abc"}, {"[a-z]*", "x1"},
		{"[!a-z]", "Q"}, {"[^é]", "é"}, {`\*x`, "*x"}, {"a[b", "a[b"}, {`x\`, `x\`}, {"*??", "€"},
		{"a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, {"[]]", "]"}, {"?", "\xff"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		got := MatchGlob(pattern, name)
		if pathComparable(pattern, name) {
			if want, _ := path.Match(pattern, name); got != want {
				t.Errorf("MatchGlob(%q, %q) = %v, path.Match says %v", pattern, name, got, want)
			}
		}
		if ValidatePattern(pattern) != nil {
			if got != (pattern == name) {
				t.Errorf("malformed %q: MatchGlob(%q) = %v, want a match on its own text only", pattern, name, got)
			}
			return
		}
		if !MatchGlob("*"+pattern, "x/"+name) && got {
			t.Errorf("%q matches %q but *%q does not match x/%q", pattern, name, pattern, name)
		}
		if !MatchGlob(pattern+"*", name+"/y") && got {
			t.Errorf("%q matches %q but %q* does not match %q/y", pattern, name, pattern, name)
		}
	})
}
