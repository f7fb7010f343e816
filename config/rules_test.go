package config

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
)

// TestGlobalPolicyReachesEveryServerItNames: the top-level "policy" goes to
// every server of every host its server: terms match, after the server's
// own rules, once however often the file is discovered from.
func TestGlobalPolicyReachesEveryServerItNames(t *testing.T) {
	h := installHosts(t)
	own := `{
  "mcpServers": {
    "docs": {"command": "x", "policy": {"deny": ["is:destructive !write_file"], "allow": ["write_file"]}}
  },
  "policy": {
    "confirm": ["is:open-world"],
    "deny": ["server:cursor:github is:destructive !delete_branch", "server:github drop_*", "server:vscode:* server:*mem* is:write"]
  }
}`
	if err := os.WriteFile(h.own, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	rules := func(s *Server) string {
		var out []string
		for _, r := range s.Rules {
			out = append(out, string(r.Action)+" "+r.Pattern)
		}
		return strings.Join(out, "; ")
	}
	for range 2 {
		c := h.discover(t, false)
		tests := []struct{ ref, want string }{
			{"mcpsh:docs", "deny is:destructive !write_file; allow write_file; confirm is:open-world"},
			{"cursor:github", "confirm is:open-world; deny server:cursor:github is:destructive !delete_branch; deny server:github drop_*"},
			{"claude-desktop:github", "confirm is:open-world; deny server:github drop_*"},
			{"cursor:notion", "confirm is:open-world"},
			{"vscode:memory", "confirm is:open-world; deny server:vscode:* server:*mem* is:write"},
			{"vscode:perplexity", "confirm is:open-world"},
		}
		for _, tt := range tests {
			if got := rules(byRef(t, c, tt.ref, "")); got != tt.want {
				t.Errorf("%s: rules %q\nwant %q", tt.ref, got, tt.want)
			}
		}
		for _, s := range c.Servers {
			if !slices.Contains(s.Rules, policy.Rule{Pattern: "is:open-world", Action: policy.Confirm}) {
				t.Errorf("%s lacks the rule for every server: %v", s.Ref(), s.Rules)
			}
		}
	}
	f, err := Load(h.own, envOf(h.env))
	if err != nil {
		t.Fatal(err)
	}
	if got := rules(f.Servers[0]); got != "deny is:destructive !write_file; allow write_file" {
		t.Errorf("the file's own server gained rules from discovery: %q", got)
	}
}

// TestRulesFor is what a server found no other way gets: one named on the
// command line gets the rules for every server, and those naming it.
func TestRulesFor(t *testing.T) {
	f, err := Parse("c.json", []byte(`{"policy": {
		"deny": ["is:destructive", "server:demo push", "server:cursor:* pull", "server:mcpsh:demo fetch"]}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	pats := func(rs []policy.Rule) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Pattern)
		}
		return out
	}
	tests := []struct {
		host Host
		name string
		want []string
	}{
		{HostMcpsh, "", []string{"is:destructive"}},
		{HostMcpsh, "demo", []string{"is:destructive", "server:demo push", "server:mcpsh:demo fetch"}},
		{HostCursor, "demo", []string{"is:destructive", "server:demo push", "server:cursor:* pull"}},
		{HostCursor, "github", []string{"is:destructive", "server:cursor:* pull"}},
	}
	for _, tt := range tests {
		if got := pats(f.RulesFor(tt.host, tt.name)); !slices.Equal(got, tt.want) {
			t.Errorf("RulesFor(%s, %q) = %q, want %q", tt.host, tt.name, got, tt.want)
		}
	}
	if (*File)(nil).RulesFor(HostMcpsh, "x") != nil {
		t.Error("a nil File has rules")
	}
}

// TestServerRefs: a server: term names a server as "trust" does, and a
// misspelt host is an error rather than a rule that quietly matches nothing.
func TestServerRefs(t *testing.T) {
	for _, ok := range []string{"github", "cursor:github", "cursor:*", "*", "git*", "*:github", `a\:b`, "[cv]*:github"} {
		if err := checkRule("server:"+ok+" is:write", true); err != nil {
			t.Errorf("server:%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"cursr:github", "Cursor:github", "claude:x"} {
		if err := checkRule("server:"+bad+" is:write", true); err == nil || !strings.Contains(err.Error(), "unknown host") {
			t.Errorf("server:%s: %v, want an unknown host", bad, err)
		}
	}
}
