package policy

import (
	"fmt"
	"path"
)

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

// Rule applies Action to every tool whose name matches the glob Pattern
// (path.Match syntax: *, ?, [a-z]).
type Rule struct {
	Pattern string
	Action  Action
}

// ValidatePattern reports a glob that path.Match cannot use, so config loading can
// name it instead of the rule silently never matching.
func ValidatePattern(p string) error {
	if p == "" {
		return fmt.Errorf("empty pattern")
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("bad glob %q: %v", p, err)
	}
	return nil
}

func (r Rule) matches(tool string) bool {
	ok, err := path.Match(r.Pattern, tool)
	if err != nil {
		// A malformed pattern still matches its own literal text, so a deny rule
		// with a typo keeps denying the tool it names.
		return r.Pattern == tool
	}
	return ok
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
