package config

import (
	"strings"

	"github.com/mcpsh/mcpsh/policy"
)

// ownKeys are the top-level keys of mcpsh's own file that reach beyond its
// servers: "discover" (false reads none of the other hosts' files), "trust",
// which untrusts servers by name, by HOST:NAME or by HOST:*
// ({"cursor:*": "untrusted"}), and "policy", rules for every server
// (rules.go). A duplicate of any is an error, as for servers.
var ownKeys = map[string]bool{"discover": true, "trust": true, "policy": true}

// own reads the file's top-level "discover", "trust" and "policy" into f.
func (p *parser) own(f *File, top []member) error {
	for _, m := range top {
		if !ownKeys[m.name] || kind(m.value) == "null" {
			continue
		}
		switch m.name {
		case "discover":
			if k := kind(m.value); k != "a boolean" {
				return p.errf("discover", "want true or false, got %s", k)
			}
			f.NoDiscover = strings.TrimSpace(string(m.value)) == "false"
		case "policy":
			rules, err := p.readRules("policy", m.value, true)
			if err != nil {
				return err
			}
			f.Policy = rules
		case "trust":
			ms, err := p.object("trust", m.value, nil)
			if err != nil {
				return err
			}
			for _, tm := range ms {
				key := "trust." + tm.name
				v, err := p.str(key, tm.value)
				if err != nil {
					return err
				}
				t, err := policy.ParseTrust(v)
				switch {
				case err != nil:
					return p.errf(key, "%v", err)
				case t != policy.Untrusted:
					// Trust in hints is the host's to give; mcpsh's file may only take it away.
					return p.errf(key, `only "untrusted" can be set here: mcpsh's config can make a server stricter, never more lenient`)
				case tm.name == "" || strings.HasSuffix(tm.name, ":"):
					return p.errf(key, `want a server's NAME, HOST:NAME or HOST:*`)
				}
				f.Untrust = append(f.Untrust, tm.name)
			}
		}
	}
	return nil
}

// untrusts reports whether the pattern, from "trust", matches s: its name,
// its HOST:NAME, or HOST:* for every server of that host.
func untrusts(pattern string, s *Server) bool {
	if h, name, ok := strings.Cut(pattern, ":"); ok {
		if host, known := ParseHost(h); known {
			sh := s.Origin.Host
			if sh == "" {
				sh = HostMcpsh
			}
			return sh == host && (name == "*" || name == s.Name)
		}
	}
	return pattern == s.Name
}

// applyUntrust makes every server a pattern matches untrusted.
func applyUntrust(patterns []string, servers []*Server) {
	for _, s := range servers {
		for _, pat := range patterns {
			if untrusts(pat, s) {
				s.Trust = policy.Untrusted
			}
		}
	}
}

// UntrustsRef reports whether the file's "trust" untrusts the server ref
// names: HOST:NAME, or a NAME of mcpsh's own. A server mcpsh reaches without
// a file (mcpsh proxy --as cursor:github -- ...) is judged by the name it is
// given, so the file can make it stricter as it would the host's entry.
func (f *File) UntrustsRef(ref string) bool {
	if f == nil {
		return false
	}
	host, name := splitRef(ref)
	s := &Server{Name: name, Origin: Origin{Host: host}}
	for _, pat := range f.Untrust {
		if untrusts(pat, s) {
			return true
		}
	}
	return false
}

// splitRef reads a server's reference as UntrustsRef and RulesForRef take
// it: HOST:NAME when HOST is a host mcpsh knows, else a NAME of mcpsh's own.
func splitRef(ref string) (Host, string) {
	if h, name, ok := strings.Cut(ref, ":"); ok {
		if host, known := ParseHost(h); known {
			return host, name
		}
	}
	return HostMcpsh, ref
}
