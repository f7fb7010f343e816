package policy

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Action is what a rule asks for the calls it matches.
type Action string

const (
	Allow   Action = "allow"
	Confirm Action = "confirm"
	Deny    Action = "deny"
)

// ParseAction accepts the rule actions a config file may name.
func ParseAction(s string) (Action, error) {
	switch a := Action(s); a {
	case Allow, Confirm, Deny:
		return a, nil
	}
	return "", fmt.Errorf("unknown action %q (want allow, confirm or deny)", s)
}

// Rule applies Action to every call its Pattern matches. The pattern is
// terms separated by spaces, all of which must match (see ParseRule):
//
//	delete_*                 a tool name glob (MatchGlob), as rules always took
//	is:destructive           a facet of the tool (FacetWords), from its hints
//	!delete_branch           not a tool whose name matches the glob
//	server:cursor:github     the server (HOST:NAME or NAME, a glob)
//
// "deny every destructive tool but one" is "is:destructive !delete_branch";
// the strictest rule that matches wins, so an allow rule cannot carve a tool
// out of a deny rule. server: terms are the config's to apply: a rule is
// given only to the servers they match, and Decide takes them as met.
type Rule struct {
	Pattern string
	Action  Action
}

// RuleTerms is a rule's text taken apart.
type RuleTerms struct {
	// Name is the tool name glob; "" when the rule names no tool.
	Name string
	// Except are the globs of the names the rule leaves out.
	Except []string
	// Is are the facets the tool must have, all of them.
	Is Facet
	// Servers are the server: globs, over NAME or HOST:NAME.
	Servers []string
}

// ParseRule takes a rule's text apart, or says what is wrong with it so
// config loading can name the term. A rule has at most one name glob (two
// would more likely be a name with a space in it: write "\ " for one), and
// at least one term besides "!" ones.
func ParseRule(text string) (RuleTerms, error) {
	var r RuleTerms
	terms := splitTerms(text)
	if len(terms) == 0 {
		return r, fmt.Errorf("empty rule (want a tool name glob, is:WORD or both)")
	}
	for _, t := range terms {
		prefix, rest, _ := strings.Cut(t, ":")
		switch {
		case strings.HasPrefix(t, "!"):
			g := t[1:]
			if p, _, ok := strings.Cut(g, ":"); ok && isTermPrefix(p) {
				return r, fmt.Errorf("%q: ! leaves out tool names only, not %s: terms", t, strings.ToLower(p))
			}
			if err := ValidatePattern(g); err != nil {
				return r, fmt.Errorf("%q: %w", t, err)
			}
			r.Except = append(r.Except, g)
		case strings.EqualFold(prefix, "is") && strings.Contains(t, ":"):
			f, err := parseIs(rest)
			if err != nil {
				return r, err
			}
			r.Is |= f
		case strings.EqualFold(prefix, "server") && strings.Contains(t, ":"):
			if rest == "" {
				return r, fmt.Errorf("%q: want server:NAME or server:HOST:NAME", t)
			}
			if err := ValidatePattern(rest); err != nil {
				return r, fmt.Errorf("%q: %w", t, err)
			}
			r.Servers = append(r.Servers, rest)
		default:
			if r.Name != "" {
				return r, fmt.Errorf("two tool name globs, %q and %q: a rule takes one (a space separates terms; write \"\\ \" for a space in a name)", r.Name, t)
			}
			if err := ValidatePattern(t); err != nil {
				return r, err
			}
			r.Name = t
		}
	}
	if r.Name == "" && r.Is == 0 && len(r.Servers) == 0 {
		return r, fmt.Errorf("a rule of ! terms alone matches no tool it names: add a glob (\"* %s\") or is:WORD", strings.Join(terms, " "))
	}
	return r, nil
}

// ValidateRule reports what is wrong with a rule's text, naming the term.
func ValidateRule(text string) error {
	_, err := ParseRule(text)
	return err
}

// isTermPrefix reports whether p, before a colon, names a kind of term.
func isTermPrefix(p string) bool { return strings.EqualFold(p, "is") || strings.EqualFold(p, "server") }

// parseIs reads the word after is:.
func parseIs(word string) (Facet, error) {
	if f, ok := ParseFacet(word); ok {
		return f, nil
	}
	var words []string
	for _, w := range FacetWords {
		words = append(words, w.Word)
	}
	want := strings.Join(words, ", ")
	switch strings.ToLower(word) {
	case "":
		return 0, fmt.Errorf("is: without a word (want one of %s)", want)
	case "allowed", "denied":
		return 0, fmt.Errorf("is:%s is the session's, for the tool list's filter, not a rule's word (want one of %s)", strings.ToLower(word), want)
	}
	return 0, fmt.Errorf("unknown is: word %q (want one of %s)", word, want)
}

// splitTerms splits text at whitespace that is not escaped with "\". The
// terms are substrings of text, escapes and all, for MatchGlob to read.
func splitTerms(text string) []string {
	var out []string
	start := -1
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			if start >= 0 {
				out = append(out, text[start:i])
				start = -1
			}
		case start < 0:
			start = i
		}
		if r == '\\' && i+w < len(text) {
			_, w2 := utf8.DecodeRuneInString(text[i+w:])
			w += w2
		}
		i += w
	}
	if start >= 0 {
		out = append(out, text[start:])
	}
	return out
}

// ruleMatch is how one rule bears on one call.
type ruleMatch struct {
	rule  Rule
	terms RuleTerms
	// ok: the rule matches the call.
	ok bool
	// worst are the facets it matched only because an untrusted server's
	// tool counts as having them whatever it declares.
	worst Facet
	// ignored: an allow rule that asks for facets, which would have matched
	// were the server trusted.
	ignored bool
}

// matchRule reports how r bears on a call to tool, with hints h, on a
// server of trust t. A text ParseRule rejects keeps the meaning every rule
// had before terms: a glob over the name (MatchGlob, which matches a
// malformed glob to its own text only), so no rule written before terms
// existed matches less than it did.
func matchRule(r Rule, tool string, h Hints, t Trust) ruleMatch {
	m := ruleMatch{rule: r}
	if r.Action.strictness() == 0 {
		return m
	}
	terms, err := ParseRule(r.Pattern)
	if err != nil {
		m.ok = MatchGlob(r.Pattern, tool)
		return m
	}
	m.terms = terms
	if !terms.names(tool) {
		return m
	}
	m.ok = MatchFacets(terms.Is, h, t, r.Action)
	switch {
	case m.ok && t != Trusted:
		m.worst = terms.Is &^ h.Facets()
	case !m.ok && t != Trusted && r.Action == Allow:
		m.ignored = MatchFacets(terms.Is, h, Trusted, Allow)
	}
	return m
}

// names reports whether the rule's name terms let tool through.
func (r RuleTerms) names(tool string) bool {
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

// strictness orders actions so that the strictest matching rule wins: deny, then
// confirm, then allow.
func (a Action) strictness() int {
	switch a {
	case Deny:
		return 3
	case Confirm:
		return 2
	case Allow:
		return 1
	}
	return 0
}

// match returns the strictest rule that matches the call, if any, and the
// first allow rule that was ignored because the server is untrusted.
func match(rules []Rule, tool string, h Hints, t Trust) (best ruleMatch, found bool, ignored *ruleMatch) {
	for _, r := range rules {
		m := matchRule(r, tool, h, t)
		if m.ignored && ignored == nil {
			ig := m
			ignored = &ig
		}
		if !m.ok {
			continue
		}
		if !found || r.Action.strictness() > best.rule.Action.strictness() {
			best, found = m, true
		}
	}
	return best, found, ignored
}
