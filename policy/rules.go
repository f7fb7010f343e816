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
	err := walkRule(text, func(k termKind, v string, f Facet) {
		switch k {
		case termName:
			r.Name = v
		case termExcept:
			r.Except = append(r.Except, v)
		case termIs:
			r.Is |= f
		case termServer:
			r.Servers = append(r.Servers, v)
		}
	})
	if err != nil {
		return RuleTerms{}, err
	}
	return r, nil
}

// termKind is what a term of a rule is.
type termKind uint8

const (
	termName   termKind = iota // a tool name glob
	termExcept                 // !GLOB
	termIs                     // is:WORD
	termServer                 // server:REF
)

// walkRule checks a rule's text term by term and hands each to visit: its
// kind, its glob (for a name, ! or server: term) or its facet. It returns
// what is wrong with the text, and allocates only to say so: Decide reads
// every rule for every call, and the tool list for every tool.
func walkRule(text string, visit func(termKind, string, Facet)) error {
	terms, name, positive := 0, "", false
	for i := 0; ; {
		t, next := nextTerm(text, i)
		if t == "" {
			break
		}
		i = next
		terms++
		prefix, rest, colon := strings.Cut(t, ":")
		switch {
		case t[0] == '!':
			g := t[1:]
			if p, _, ok := strings.Cut(g, ":"); ok && isTermPrefix(p) {
				return fmt.Errorf("%q: ! leaves out tool names only, not %s: terms", t, strings.ToLower(p))
			}
			if msg := globError(g); msg != "" {
				return fmt.Errorf("%q: bad glob %q: %s", t, g, msg)
			}
			visit(termExcept, g, 0)
		case colon && strings.EqualFold(prefix, "is"):
			f, err := parseIs(rest)
			if err != nil {
				return err
			}
			positive = true
			visit(termIs, "", f)
		case colon && strings.EqualFold(prefix, "server"):
			if rest == "" {
				return fmt.Errorf("%q: want server:NAME or server:HOST:NAME", t)
			}
			if msg := globError(rest); msg != "" {
				return fmt.Errorf("%q: bad glob %q: %s", t, rest, msg)
			}
			positive = true
			visit(termServer, rest, 0)
		default:
			if name != "" {
				return fmt.Errorf("two tool name globs, %q and %q: a rule takes one (a space separates terms; write \"\\ \" for a space in a name)", name, t)
			}
			if msg := globError(t); msg != "" {
				return fmt.Errorf("bad glob %q: %s", t, msg)
			}
			name, positive = t, true
			visit(termName, t, 0)
		}
	}
	switch {
	case terms == 0:
		return fmt.Errorf("empty rule (want a tool name glob, is:WORD or both)")
	case !positive:
		return fmt.Errorf("a rule of ! terms alone matches no tool it names: add a glob (%q) or is:WORD", "* "+strings.Join(splitTerms(text), " "))
	}
	return nil
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

// splitTerms splits text at whitespace that is not escaped with "\".
func splitTerms(text string) []string {
	var out []string
	for i := 0; ; {
		t, next := nextTerm(text, i)
		if t == "" {
			return out
		}
		out, i = append(out, t), next
	}
}

// nextTerm is the term of text that starts at or after i, and where it
// ends; "" when there is none. A term ends at whitespace not escaped with
// "\", and is a substring of text, escapes and all, for MatchGlob to read.
func nextTerm(text string, i int) (term string, next int) {
	start := -1
	for i < len(text) {
		r, w := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(text[i:])
		}
		if isSpace(r) {
			if start >= 0 {
				return text[start:i], i
			}
		} else if start < 0 {
			start = i
		}
		if r == '\\' && i+w < len(text) {
			_, w2 := utf8.DecodeRuneInString(text[i+w:])
			w += w2
		}
		i += w
	}
	if start < 0 {
		return "", i
	}
	return text[start:], i
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}

// ruleMatch is how one rule bears on one call.
type ruleMatch struct {
	rule Rule
	// is are the facets the rule asks for.
	is Facet
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
	names := true
	err := walkRule(r.Pattern, func(k termKind, g string, f Facet) {
		switch k {
		case termName:
			names = names && matchGlob(g, tool)
		case termExcept:
			names = names && !matchGlob(g, tool)
		case termIs:
			m.is |= f
		}
	})
	if err != nil {
		m.is = 0
		m.ok = MatchGlob(r.Pattern, tool)
		return m
	}
	if !names {
		return m
	}
	m.ok = MatchFacets(m.is, h, t, r.Action)
	switch {
	case m.ok && t != Trusted:
		m.worst = m.is &^ h.Facets()
	case !m.ok && t != Trusted && r.Action == Allow:
		m.ignored = MatchFacets(m.is, h, Trusted, Allow)
	}
	return m
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
