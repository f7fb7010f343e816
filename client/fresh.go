package client

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// A server may change its hints between a listing and a call: it says so with
// notifications/tools/list_changed, or it restarts. Every decision is made on
// what it declares now, so a call is decided on a fresh listing whenever the
// last one may be out of date, and an approval a person gave holds only for
// the hints they saw.

// Stale reports whether the server has said its tools changed since the last
// listing began.
func (s *Session) Stale() bool { return s.changes.Load() != s.listed.Load() }

// errNoLongerListed: the tool was in an earlier listing but is not in the
// server's current one.
var errNoLongerListed = errors.New("no longer listed")

// refresh lists the tools again when the server has said they changed, and
// returns the tool by that name as the current listing has it.
func (s *Session) refresh(ctx context.Context, name string) (*Tool, error) {
	if s.Stale() && !s.current().gone() {
		if _, err := s.ListTools(ctx); err != nil {
			return nil, fmt.Errorf("the server said its tools changed, and listing them again failed: %w", err)
		}
	}
	t, ok := s.Tool(name)
	if !ok {
		return nil, errNoLongerListed
	}
	return t, nil
}

// decideFor is the decision for c made on tool, the server's current
// declaration. The user's own approval (this call, or the tool for the
// session) holds only if the hints are those the user saw on c.Tool.
func (s *Session) decideFor(c *Call, tool *Tool) policy.Decision {
	cc := *c
	cc.Tool = tool
	if tool.Hints != c.Tool.Hints {
		cc.Approved, cc.SessionAllowed = false, false
	}
	return s.Decide(&cc)
}

// HintChange says how a tool's declared hints changed between two listings,
// in wire names, with the class before and after; "" when they did not.
func HintChange(before, after *Tool) string {
	if before.Hints == after.Hints {
		return ""
	}
	var parts []string
	for _, f := range policy.Fields {
		if b, a := before.Hints.Get(f), after.Hints.Get(f); b != a {
			parts = append(parts, fmt.Sprintf("%s %s → %s", f, b, a))
		}
	}
	return fmt.Sprintf("%s (%s → %s)", strings.Join(parts, ", "), before.Class(), after.Class())
}

// redecided updates the outcome's account of the tool and the decision after
// the server declared the tool anew.
func (o *Outcome) redecided(before, after *Tool, d policy.Decision) {
	if ch := HintChange(before, after); ch != "" {
		o.HintsChanged = ch
	}
	o.Title, o.Class, o.Flags, o.Declared, o.Conflict = after.Title, after.Class(), flagsOf(after.Effective()), after.Declared, after.Hints.Conflict()
	o.Decision, o.Reason, o.ApprovedBy, o.Need, o.Rule, o.Basis = d.Verdict, d.Reason, d.By, d.Need, d.Rule, d.Basis
	o.ReplaySafe, o.OpenWorld = d.ReplaySafe, d.OpenWorld
}

// notSentBecause explains why a call was not sent after the server's tools
// changed under it.
func notSentBecause(tool string, err error) string {
	name := termtext.Line(tool)
	switch {
	case errors.Is(err, errNoLongerListed):
		return fmt.Sprintf("not sent: the server no longer lists %s (its tools changed)", name)
	default:
		var ae *ArgError
		if errors.As(err, &ae) {
			return fmt.Sprintf("not sent: the server changed %s's input schema and the arguments no longer fit: %s", name, ae.Error())
		}
		return "not sent: " + err.Error()
	}
}
