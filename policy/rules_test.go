package policy

import (
	"strings"
	"testing"
)

func TestParseRule(t *testing.T) {
	tests := []struct {
		text string
		want RuleTerms
	}{
		{"delete_*", RuleTerms{Name: "delete_*"}},
		{"is:destructive", RuleTerms{Is: FacetDestructive}},
		{"  is:destructive\t!delete_branch ", RuleTerms{Is: FacetDestructive, Except: []string{"delete_branch"}}},
		{"fs_* is:write is:open-world", RuleTerms{Name: "fs_*", Is: FacetWrite | FacetOpenWorld}},
		{"IS:Read-Only is:readonly is:openworld", RuleTerms{Is: FacetReadOnly | FacetOpenWorld}},
		{"server:cursor:github is:destructive !a !b*", RuleTerms{Is: FacetDestructive, Except: []string{"a", "b*"}, Servers: []string{"cursor:github"}}},
		{"server:git*", RuleTerms{Servers: []string{"git*"}}},
		{`my\ tool`, RuleTerms{Name: `my\ tool`}},
		{"ns:tool", RuleTerms{Name: "ns:tool"}},
	}
	for _, tt := range tests {
		got, err := ParseRule(tt.text)
		if err != nil {
			t.Errorf("ParseRule(%q): %v", tt.text, err)
			continue
		}
		if got.Name != tt.want.Name || got.Is != tt.want.Is || strings.Join(got.Except, ",") != strings.Join(tt.want.Except, ",") ||
			strings.Join(got.Servers, ",") != strings.Join(tt.want.Servers, ",") {
			t.Errorf("ParseRule(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

// TestValidateRuleNamesTheTerm: config prints these after the file and key,
// so each must say which term is wrong and what would be right.
func TestValidateRuleNamesTheTerm(t *testing.T) {
	tests := []struct{ text, msg string }{
		{"is:dest", `unknown is: word "dest" (want one of destructive, write, read-only, open-world, implied, conflict, idempotent)`},
		{"is:allowed", `is:allowed is the session's, for the tool list's filter, not a rule's word`},
		{"is:denied", `is:denied is the session's`},
		{"is:", `is: without a word`},
		{"", "empty rule"},
		{"  ", "empty rule"},
		{"my tool", `two tool name globs, "my" and "tool": a rule takes one`},
		{"!x", `a rule of ! terms alone matches no tool it names: add a glob ("* !x") or is:WORD`},
		{"!", `"!": bad glob "": empty pattern`},
		{"!is:write", `"!is:write": ! leaves out tool names only, not is: terms`},
		{"server:", `"server:": want server:NAME or server:HOST:NAME`},
		{"server:a[b", `"server:a[b": bad glob "a[b"`},
		{"is:write a[b", `bad glob "a[b"`},
		{`x\`, `it ends with a lone "\"`},
	}
	for _, tt := range tests {
		err := ValidateRule(tt.text)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ValidateRule(%q) = %v, want an error saying %q", tt.text, err, tt.msg)
		}
	}
}

// TestBareGlobKeepsItsMeaning: every rule written before terms existed
// matches what it matched then, whatever the hints and trust, and a text
// the terms reject is read as it was read then.
func TestBareGlobKeepsItsMeaning(t *testing.T) {
	patterns := []string{"*", "delete_*", "fs/*", "a?c", "[a-z]*", `\*x`, "a[b", "my tool", "!x", "is:dest", "ns:tool", `x\`}
	names := []string{"delete_all", "fs/delete_file", "abc", "*x", "a[b", "my tool", "!x", "is:dest", "ns:tool", `x\`, "Q"}
	values := []Hint{Absent, False, True}
	for _, p := range patterns {
		for _, n := range names {
			want := MatchGlob(p, n)
			for _, ro := range values {
				for _, de := range values {
					h := Hints{ReadOnly: ro, Destructive: de}
					for _, tr := range []Trust{Trusted, Untrusted} {
						for _, a := range []Action{Allow, Confirm, Deny} {
							if got := matchRule(Rule{p, a}, n, h, tr).ok; got != want {
								t.Errorf("%s %q on %q (%+v, %s): %v, MatchGlob says %v", a, p, n, h, tr, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestMatchFacets(t *testing.T) {
	readOnlyClaim := Hints{ReadOnly: True, OpenWorld: False}
	fullyDeclaredDestroyer := Hints{ReadOnly: False, Destructive: True, Idempotent: False, OpenWorld: True}
	tests := []struct {
		name  string
		want  Facet
		h     Hints
		trust Trust
		a     Action
		match bool
	}{
		{"trusted: the tool's facets", FacetReadOnly, readOnlyClaim, Trusted, Allow, true},
		{"trusted: a facet it lacks", FacetDestructive, readOnlyClaim, Trusted, Deny, false},
		{"trusted: all facets wanted", FacetReadOnly | FacetOpenWorld, readOnlyClaim, Trusted, Deny, false},
		{"untrusted: allow on facets never matches", FacetReadOnly, readOnlyClaim, Untrusted, Allow, false},
		{"untrusted: allow on no facet matches", 0, readOnlyClaim, Untrusted, Allow, true},
		{"untrusted: a read-only claim does not escape deny is:destructive", FacetDestructive, readOnlyClaim, Untrusted, Deny, true},
		{"untrusted: nor confirm is:open-world", FacetOpenWorld, readOnlyClaim, Untrusted, Confirm, true},
		{"untrusted: implied counts as present", FacetImplied, fullyDeclaredDestroyer, Untrusted, Confirm, true},
		{"untrusted: write counts as present", FacetWrite, fullyDeclaredDestroyer, Untrusted, Deny, true},
		{"untrusted: read-only as declared", FacetReadOnly, readOnlyClaim, Untrusted, Deny, true},
		{"untrusted: read-only not declared", FacetReadOnly, fullyDeclaredDestroyer, Untrusted, Deny, false},
		{"untrusted: idempotent as declared", FacetIdempotent, fullyDeclaredDestroyer, Untrusted, Confirm, false},
		{"untrusted: conflict as declared", FacetConflict, Hints{ReadOnly: True, Destructive: True}, Untrusted, Deny, true},
		{"an unknown trust is untrusted", FacetReadOnly, readOnlyClaim, Trust("yes"), Allow, false},
		{"an unknown action is not an allow on untrusted, and not stricter", FacetDestructive, readOnlyClaim, Untrusted, Action("maybe"), false},
	}
	for _, tt := range tests {
		if got := MatchFacets(tt.want, tt.h, tt.trust, tt.a); got != tt.match {
			t.Errorf("%s: MatchFacets(%s, %+v, %s, %s) = %v", tt.name, tt.want.Words(), tt.h, tt.trust, tt.a, got)
		}
	}
}

// TestRulesThatSpeakAnnotations walks through what the rules are for.
func TestRulesThatSpeakAnnotations(t *testing.T) {
	destroyer := Hints{ReadOnly: False, Destructive: True, OpenWorld: False}
	reader := Hints{ReadOnly: True, OpenWorld: False}
	webReader := Hints{ReadOnly: True, OpenWorld: True}
	classButOne := []Rule{{"is:destructive !delete_branch", Deny}, {"delete_branch", Allow}}
	tests := []struct {
		name    string
		req     Request
		verdict Verdict
		by      Approver
		reason  string
	}{
		{"deny the class", Request{Tool: "drop_table", Hints: destroyer, Trust: Trusted, Mode: Interactive, Rules: classButOne},
			Refuse, "", `denied by rule "is:destructive !delete_branch"`},
		{"but allow one tool of it", Request{Tool: "delete_branch", Hints: destroyer, Trust: Trusted, Mode: Batch, Rules: classButOne},
			Run, ByRule, `allowed by rule "delete_branch" (destructive tool)`},
		{"an allow rule cannot carve a tool out of a deny rule", Request{Tool: "delete_branch", Hints: destroyer, Trust: Trusted, Mode: Batch,
			Rules: []Rule{{"is:destructive", Deny}, {"delete_branch", Allow}}},
			Refuse, "", `denied by rule "is:destructive"`},
		{"deny wins over --yes", Request{Tool: "rm", Hints: destroyer, Trust: Trusted, Mode: Batch, Preapproved: true, Rules: classButOne},
			Refuse, "", "denied by rule"},
		{"confirm every open-world call", Request{Tool: "fetch", Hints: webReader, Trust: Trusted, Mode: Batch, Rules: []Rule{{"is:open-world", Confirm}}},
			Refuse, "", `rule "is:open-world" asks first: needs a person's approval, and no one can be asked here`},
		{"a closed-world reader still runs", Request{Tool: "get", Hints: reader, Trust: Trusted, Mode: Batch, Rules: []Rule{{"is:open-world", Confirm}}},
			Run, ByPolicy, "read-only tool: runs without asking"},
		{"allow by class on a trusted server", Request{Tool: "rm", Hints: destroyer, Trust: Trusted, Mode: Batch, Rules: []Rule{{"is:destructive", Allow}}},
			Run, ByRule, `allowed by rule "is:destructive" (destructive tool)`},
		{"allow by class is ignored on an untrusted server, and says so", Request{Tool: "get", Hints: reader, Trust: Untrusted, Mode: Batch,
			Rules: []Rule{{"is:read-only", Allow}}},
			Refuse, "", `; allow rule "is:read-only" ignored: it matches on the server's hints, and the server is untrusted`},
		{"allow by name still works on an untrusted server", Request{Tool: "get", Hints: reader, Trust: Untrusted, Mode: Batch,
			Rules: []Rule{{"get", Allow}}},
			Run, ByRule, `allowed by rule "get" (untrusted server`},
		{"a lying read-only claim does not escape deny is:destructive", Request{Tool: "get", Hints: reader, Trust: Untrusted, Mode: Interactive,
			Rules: []Rule{{"is:destructive", Deny}}},
			Refuse, "", `denied by rule "is:destructive" (the server is untrusted: it counts as destructive whatever it declares)`},
		{"untrusted: a read-only claim is believed for deny is:read-only", Request{Tool: "get", Hints: reader, Trust: Untrusted, Mode: Interactive,
			Rules: []Rule{{"is:read-only", Deny}}},
			Refuse, "", `denied by rule "is:read-only"`},
		{"the strictest of the server's and the global rules wins", Request{Tool: "push", Hints: Hints{ReadOnly: False, Destructive: False, OpenWorld: True},
			Trust: Trusted, Mode: Interactive, Rules: []Rule{{"push", Allow}, {"server:github is:open-world", Confirm}}},
			Ask, "", `rule "server:github is:open-world" asks first`},
		{"a rule with a typo keeps its old meaning", Request{Tool: "rm", Hints: destroyer, Trust: Trusted, Mode: Interactive,
			Rules: []Rule{{"is:dest", Deny}}},
			Ask, "", "destructive tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.req)
			if d.Verdict != tt.verdict || d.By != tt.by || !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("Decide() = %s by %q: %q\nwant %s by %q, reason with %q", d.Verdict, d.By, d.Reason, tt.verdict, tt.by, tt.reason)
			}
		})
	}
}
