package policy

import (
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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
		{2, 0, 0, 1, "untrusted", "batch", true, false, false, 4, "rm", "is:destructive", "deny", "rm", "allow"},
		{2, 0, 0, 1, "untrusted", "interactive", false, false, false, 4, "get", "is:read-only", "allow", "is:read-only", "deny"},
		{1, 2, 0, 0, "trusted", "batch", false, false, false, 4, "delete_branch", "is:destructive !delete_branch", "deny", "delete_branch", "allow"},
		{2, 1, 1, 2, "trusted", "interactive", true, false, false, 4, "web", "server:x:* is:open-world", "confirm", "w* is:idempotent", "allow"},
		{0, 0, 0, 0, "untrusted", "batch", false, true, false, 4, "a b", "a b", "deny", "!a", "allow"},
		{2, 2, 1, 1, "trusted", "interactive", false, false, false, 4, "is:dest", "is:dest", "deny", "IS:Conflict", "confirm"},
		{0, 1, 1, 1, "untrusted", "interactive", false, false, false, 4, "x y", `x\ y is:implied`, "confirm", "is:allowed", "allow"},
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
			if bareGlob(rule.Pattern) && matchRule(rule, tool, h, r.Trust).ok != (rule.Action.strictness() > 0 && MatchGlob(rule.Pattern, tool)) {
				t.Errorf("rule %q is a bare glob, but does not match %q as MatchGlob does", rule.Pattern, tool)
			}
			if rule.Action == Deny && matchRule(rule, tool, h, r.Trust).ok && d.Verdict != Refuse {
				t.Errorf("deny rule %q matches %q, but the verdict is %s", rule.Pattern, tool, d.Verdict)
			}
			// A hostile server cannot claim its way out of a deny rule on
			// the facets it counts as having whatever it declares.
			if terms, err := ParseRule(rule.Pattern); err == nil && rule.Action == Deny && r.Trust != Trusted &&
				namesLetThrough(terms, tool) && terms.Is&^worstCase == 0 && d.Verdict != Refuse {
				t.Errorf("untrusted: deny rule %q (worst-case facets only) did not refuse %q: %+v", rule.Pattern, tool, d)
			}
		}
		if r.Trust != Trusted {
			// Its hints can only make an untrusted server stricter: no
			// laxer than a trusted server's tool that declares the worst.
			worst := r
			worst.Trust, worst.Hints = Trusted, Hints{ReadOnly: False, Destructive: True, Idempotent: False, OpenWorld: True}
			if w := Decide(worst); rank(d.Verdict) < rank(w.Verdict) {
				t.Errorf("untrusted %+v is laxer than trusted with the worst hints %+v", d, w)
			}
			// An allow rule that asks for facets does nothing there.
			var kept []Rule
			for _, rule := range r.Rules {
				if terms, err := ParseRule(rule.Pattern); err != nil || rule.Action != Allow || terms.Is == 0 {
					kept = append(kept, rule)
				}
			}
			without := r
			without.Rules = kept
			if w := Decide(without); w.Verdict != d.Verdict || w.By != d.By {
				t.Errorf("untrusted: an allow rule with is: changed %+v into %+v", w, d)
			}
		}
		checkBasis(t, r, d)
		if readOnly && d.Verdict == Run && (r.Trust != Trusted || !h.Effective().ReadOnly) {
			t.Errorf("--read-only ran a %s tool (trust %q): %+v", h.Class(), trust, d)
		}
		if d.MaxAttempts < 1 || !d.ReplaySafe && d.MaxAttempts != 1 {
			t.Errorf("MaxAttempts %d (replay-safe %v)", d.MaxAttempts, d.ReplaySafe)
		}
		if a := d.ApproveBy(ByUser); d.Verdict != Ask && !reflect.DeepEqual(a, d) || d.Verdict == Ask && (a.Verdict != Run || a.By != ByUser) {
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
		// Rule texts: a bare glob keeps the meaning it had before terms, and
		// an exclusion of the name itself always wins.
		for _, a := range []Action{Allow, Confirm, Deny} {
			for _, tr := range []Trust{Trusted, Untrusted} {
				r := Rule{pattern, a}
				if m := matchRule(r, name, Hints{}, tr); bareGlob(pattern) && m.ok != got {
					t.Errorf("bare glob %q as a %s rule (%s): match %v, MatchGlob %v", pattern, a, tr, m.ok, got)
				}
				ex := Rule{pattern + ` !` + escapeGlob(name), a}
				if ValidateRule(ex.Pattern) == nil && matchRule(ex, name, Hints{}, tr).ok {
					t.Errorf("%q matched %q, which it leaves out", ex.Pattern, name)
				}
			}
		}
	})
}

// FuzzParseRule holds ParseRule to totality and to its own terms: a text it
// accepts puts back together into one it accepts with the same terms.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"is:destructive !delete_branch", "server:cursor:* is:open-world", `a\ b`, "!x", "is:dest",
		"IS:Read-Only", "is:allowed", "a b", "", " \t", `x\`, "!is:write", "server:", "*  !a  !b  is:write is:implied"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		terms, err := ParseRule(text)
		if err != nil {
			if err.Error() == "" || strings.Contains(err.Error(), "\n") {
				t.Errorf("error for %q must be one line: %q", text, err)
			}
			return
		}
		if terms.Name == "" && terms.Is == 0 && len(terms.Servers) == 0 {
			t.Errorf("%q parsed with no positive term: %+v", text, terms)
		}
		var parts []string
		if terms.Name != "" {
			parts = append(parts, terms.Name)
		}
		for _, w := range FacetWords {
			if terms.Is&w.Facet != 0 {
				parts = append(parts, "is:"+w.Word)
			}
		}
		for _, e := range terms.Except {
			parts = append(parts, "!"+e)
		}
		for _, s := range terms.Servers {
			parts = append(parts, "server:"+s)
		}
		again, err := ParseRule(strings.Join(parts, " "))
		if err != nil || again.Name != terms.Name || again.Is != terms.Is || !slices.Equal(again.Except, terms.Except) || !slices.Equal(again.Servers, terms.Servers) {
			t.Errorf("%q → %+v → %q → %+v, %v", text, terms, strings.Join(parts, " "), again, err)
		}
	})
}

// bareGlob reports whether a rule text is what every rule was before terms:
// one glob, with no space and none of the terms' prefixes.
func bareGlob(text string) bool {
	if strings.ContainsFunc(text, unicode.IsSpace) || strings.HasPrefix(text, "!") {
		return false
	}
	p, _, ok := strings.Cut(text, ":")
	return !ok || !isTermPrefix(p)
}

// escapeGlob makes a name a glob that matches it alone.
func escapeGlob(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); {
		r, w := utf8.DecodeRuneInString(name[i:])
		if strings.ContainsRune(`*?[]\-!^`, r) || unicode.IsSpace(r) {
			b.WriteByte('\\')
		}
		b.WriteString(name[i : i+w])
		i += w
	}
	return b.String()
}

// checkBasis holds a decision's basis to what it promises.
func checkBasis(t *testing.T, r Request, d Decision) {
	t.Helper()
	trusted := r.Trust == Trusted
	e := r.Hints.Effective()
	var fields []Field
	for _, b := range d.Basis {
		fields = append(fields, b.Field)
		if b.Declared != r.Hints.Get(b.Field) {
			t.Errorf("basis %+v: declared is not what the server sent (%s)", b, r.Hints.Get(b.Field))
		}
		switch {
		case trusted && (!b.Believed || b.Value != e.get(b.Field)):
			t.Errorf("trusted basis %+v: want the effective value %v, believed", b, e.get(b.Field))
		case !trusted && b.Value != worstValue(b.Field):
			t.Errorf("untrusted basis %+v: want the worst case", b)
		}
		if b.Decided && b.Overridden || b.Overridden && b.Rule == "" {
			t.Errorf("basis %+v: decided and overridden, or overridden by no rule", b)
		}
		if s := b.String(); strings.ContainsFunc(s, unicode.IsControl) {
			t.Errorf("basis line %q has a control character", s)
		}
	}
	var want []Field
	for _, f := range Fields {
		if !trusted || r.Hints.Relevant(f) {
			want = append(want, f)
		}
	}
	if !slices.Equal(fields, want) {
		t.Errorf("basis lists %v, want %v", fields, want)
	}
	if d.Verdict == Ask && d.Rule == "" && len(d.Deciding()) == 0 {
		t.Errorf("asks on no hint: %+v", d)
	}
}

// namesLetThrough reports whether a rule's name terms let tool through, from
// its parsed terms, as a check on matchRule, which walks the text itself.
func namesLetThrough(r RuleTerms, tool string) bool {
	if r.Name != "" && !MatchGlob(r.Name, tool) {
		return false
	}
	for _, g := range r.Except {
		if MatchGlob(g, tool) {
			return false
		}
	}
	return true
}
