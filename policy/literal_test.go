package policy

import "testing"

// A name written with LiteralGlob is a rule's tool name term that matches
// that name only, whatever it holds.
func TestLiteralGlobMatchesTheNameOnly(t *testing.T) {
	for _, name := range []string{"*", "del?te", "a b", "tab\there", "[x]", `back\slash`, "!neg", "is:destructive",
		"server:x", "fs/delete_file", "über wipe", "\u00a0nbsp", "end\\", "\xff\xfe"} {
		rule := LiteralGlob(name)
		terms, err := ParseRule(rule)
		if err != nil {
			t.Errorf("%q: rule %q: %v", name, rule, err)
			continue
		}
		if terms.Name != rule || terms.Is != 0 || len(terms.Servers) != 0 || len(terms.Except) != 0 {
			t.Errorf("%q: rule %q reads as %+v, not one name term", name, rule, terms)
		}
		if !MatchGlob(terms.Name, name) {
			t.Errorf("%q: rule %q does not match it", name, rule)
		}
		for _, other := range []string{"other_tool", "a", "", name + "x", "x" + name} {
			if other != name && MatchGlob(terms.Name, other) {
				t.Errorf("%q: rule %q also matches %q", name, rule, other)
			}
		}
	}
	// In a server: term too.
	terms, err := ParseRule("server:" + LiteralGlob("cursor") + ":" + LiteralGlob("my *server") + " " + LiteralGlob("wipe"))
	if err != nil || len(terms.Servers) != 1 || !MatchGlob(terms.Servers[0], "cursor:my *server") || MatchGlob(terms.Servers[0], "cursor:my other server") {
		t.Errorf("server term: %+v %v", terms, err)
	}
}
