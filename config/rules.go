package config

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsh/mcpsh/policy"
)

// Policy rules are read from two places in mcpsh's own file: a server's
// "policy" object, whose rules are that server's, and the top-level
// "policy", whose rules go to every server their server: terms match (every
// server, from every host, when they have none). Both take the same
// {"allow": [...], "confirm": [...], "deny": [...]} lists of rule texts
// (policy.ParseRule); the strictest rule that matches a call wins, wherever
// it was written.

// readRules reads the policy object raw, found at key. global says it is the
// top-level one, the only place server: terms may be written.
func (p *parser) readRules(key string, raw json.RawMessage, global bool) ([]policy.Rule, error) {
	ms, err := p.object(key, raw, nil)
	if err != nil {
		return nil, err
	}
	var out []policy.Rule
	for _, m := range ms {
		k := join(key, m.name)
		action, err := policy.ParseAction(m.name)
		if err != nil {
			return nil, p.errf(k, "%v", err)
		}
		if kind(m.value) == "null" {
			continue
		}
		texts, err := p.strs(k, m.value)
		if err != nil {
			return nil, err
		}
		for i, text := range texts {
			if err := checkRule(text, global); err != nil {
				return nil, p.errf(fmt.Sprintf("%s[%d]", k, i), "%v", err)
			}
			out = append(out, policy.Rule{Pattern: text, Action: action})
		}
	}
	return out, nil
}

// checkRule is policy.ValidateRule, and where a rule may name servers.
func checkRule(text string, global bool) error {
	terms, err := policy.ParseRule(text)
	if err != nil {
		return err
	}
	for _, ref := range terms.Servers {
		if !global {
			return fmt.Errorf("%q: a server's own rules are that server's already; server: belongs in the top-level \"policy\"", "server:"+ref)
		}
		if err := checkServerRef(ref); err != nil {
			return err
		}
	}
	return nil
}

// checkServerRef refuses a server: term whose host is misspelt, which would
// quietly match no server: a deny rule that matches nothing is a hole.
func checkServerRef(ref string) error {
	host, _, ok := cutUnescaped(ref, ':')
	if !ok || strings.ContainsAny(host, `*?[\`) {
		return nil
	}
	if _, known := ParseHost(host); !known {
		var hosts []string
		for _, h := range Hosts {
			hosts = append(hosts, string(h))
		}
		return fmt.Errorf("%q: unknown host %q (want NAME or HOST:NAME, HOST one of %s; write \"\\:\" for a colon in a name)",
			"server:"+ref, host, strings.Join(hosts, ", "))
	}
	return nil
}

// cutUnescaped is strings.Cut at the first sep not escaped with "\".
func cutUnescaped(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// ruleServes reports whether a rule's server: terms all match the server
// called name from host; a rule with none serves every server. A server
// matches a term whose glob matches its NAME or its HOST:NAME, as "trust"
// names servers. A target with no name (a command or URL given on the
// command line) matches no server: term.
func ruleServes(r policy.Rule, host Host, name string) bool {
	terms, err := policy.ParseRule(r.Pattern)
	if err != nil {
		return false // never read: every rule was checked when the file was read
	}
	for _, ref := range terms.Servers {
		if name == "" || !policy.MatchGlob(ref, name) && !policy.MatchGlob(ref, string(host)+":"+name) {
			return false
		}
	}
	return true
}

// RulesFor are the top-level rules for the server called name from host
// (HostMcpsh for mcpsh's own servers and for a server named on the command
// line); name is "" for a target that has none. Discover gives every server
// it finds its share already; this is for a target it did not find.
func (f *File) RulesFor(host Host, name string) []policy.Rule {
	if f == nil {
		return nil
	}
	var out []policy.Rule
	for _, r := range f.Policy {
		if ruleServes(r, host, name) {
			out = append(out, r)
		}
	}
	return out
}

// RulesForRef are the top-level rules for the server ref names, read as
// UntrustsRef reads it (HOST:NAME, or a NAME of mcpsh's own): a server
// mcpsh reaches by the name a host gave it (mcpsh proxy --as cursor:github
// -- ...) gets the rules that server: terms write for that host's entry.
func (f *File) RulesForRef(ref string) []policy.Rule {
	host, name := splitRef(ref)
	return f.RulesFor(host, name)
}

// applyPolicy appends to each server the top-level rules that serve it,
// after its own.
func applyPolicy(f *File, servers []*Server) {
	if len(f.Policy) == 0 {
		return
	}
	for _, s := range servers {
		host := s.Origin.Host
		if host == "" {
			host = HostMcpsh
		}
		if extra := f.RulesFor(host, s.Name); len(extra) > 0 {
			s.Rules = append(slices.Clip(s.Rules), extra...)
		}
	}
}
