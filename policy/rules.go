package policy

import "fmt"

// Action is what a per-server rule asks for a tool whose name matches it.
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

// Rule applies Action to every tool whose name matches the glob Pattern (see
// MatchGlob: *, ?, [a-z], [!a-z], \x; a star crosses "/").
type Rule struct {
	Pattern string
	Action  Action
}

func (r Rule) matches(tool string) bool { return MatchGlob(r.Pattern, tool) }

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

// match returns the strictest rule that matches tool, if any.
func match(rules []Rule, tool string) (Rule, bool) {
	var best Rule
	found := false
	for _, r := range rules {
		if r.Action.strictness() == 0 || !r.matches(tool) {
			continue
		}
		if !found || r.Action.strictness() > best.Action.strictness() {
			best, found = r, true
		}
	}
	return best, found
}
