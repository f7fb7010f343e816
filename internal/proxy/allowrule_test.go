package proxy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// suggestedRule is the rule a refusal's text tells a person to write, read
// as the JSON it is written in.
func suggestedRule(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, `"allow": [`)
	if i < 0 {
		t.Fatalf("no allow rule in %q", text)
	}
	var rules []string
	if err := json.NewDecoder(strings.NewReader(text[i+len(`"allow": `):])).Decode(&rules); err != nil || len(rules) != 1 {
		t.Fatalf("the suggested rule is not a JSON list of one: %v %q in %q", err, rules, text)
	}
	return rules[0]
}

// The rule a refusal suggests lets that tool of that server run and no
// other: the tool's name is written literally, whatever it holds, and a
// server with no entry in mcpsh's config is named in a server: term of a
// top-level rule.
func TestTheSuggestedAllowRuleMatchesOnlyThatTool(t *testing.T) {
	t.Parallel()
	names := []string{"*", "del?te", "a b", "[x]", `back\slash`, "!neg", "is:destructive", "server:x", "fs/delete_file",
		"tab\there", "bidi\u202ename", "emoji\U0001F600", "wipe"}
	for _, at := range []allowAt{{entry: true}, {}, {ref: "cursor:my notes"}, {ref: "git*hub"}} {
		for _, name := range names {
			o := &client.Outcome{Tool: name, Reason: "needs a person's approval", Need: policy.NeedApproval}
			text := refusal("fx", o, false, at)
			for _, l := range strings.Split(text, "\n") {
				if termtext.Line(l) != l {
					t.Errorf("%+v %q: a line of the refusal is not safe for a terminal: %q", at, name, l)
				}
			}
			rule := suggestedRule(t, text)
			terms, err := policy.ParseRule(rule)
			if err != nil {
				t.Errorf("%+v %q: suggested rule %q: %v", at, name, rule, err)
				continue
			}
			if !policy.MatchGlob(terms.Name, name) || terms.Is != 0 || len(terms.Except) != 0 {
				t.Errorf("%+v %q: suggested rule %q reads as %+v", at, name, rule, terms)
			}
			for _, other := range names {
				if other != name && policy.MatchGlob(terms.Name, other) {
					t.Errorf("%+v %q: suggested rule %q also allows %q", at, name, rule, other)
				}
			}
			switch {
			case at.ref != "":
				if len(terms.Servers) != 1 || !policy.MatchGlob(terms.Servers[0], at.ref) || policy.MatchGlob(terms.Servers[0], at.ref+"x") ||
					!strings.Contains(text, "at its top level)") {
					t.Errorf("%+v %q: suggested rule %q serves %q", at, name, rule, terms.Servers)
				}
			case at.entry:
				if len(terms.Servers) != 0 || !strings.Contains(text, "on the server's entry") {
					t.Errorf("%+v %q: suggested %q", at, name, text)
				}
			default:
				if len(terms.Servers) != 0 || !strings.Contains(text, "at its top level, for every server") {
					t.Errorf("%+v %q: suggested %q", at, name, text)
				}
			}
		}
	}
}
