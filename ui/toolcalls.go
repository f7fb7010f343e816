package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
)

// Calls started from the tool list. Each goes through the form and runForm,
// the one path to a call: the form is opened first so that an example that
// breaks the schema, or a confirmation the user declines, lands in it with
// the arguments filled in; and runForm decides, so a destructive tool still
// asks and a denied one is refused.

// callWithExample runs t with its nth input example (1-based).
func (s *serverState) callWithExample(t *client.Tool, n int) tea.Cmd {
	if n < 1 || n > len(t.Examples) {
		s.status = termtext.Line(t.Name) + " has " + units.Plural(len(t.Examples), "input example")
		return nil
	}
	s.openForm(t, nil)
	s.form.FillExample(n)
	return s.runForm()
}

// callTool is enter on a tool: a tool that takes no arguments runs at once;
// any other opens its form.
func (s *serverState) callTool(t *client.Tool) tea.Cmd {
	s.openForm(t, nil)
	if !s.form.NothingToFill() {
		return nil
	}
	return s.runForm()
}

// onListExtraKey handles the tool list's keys beyond moving and calling:
// u takes back an allowance given with a in the confirmation dialog.
func (s *serverState) onListExtraKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, s.keys.Unallow) {
		if t := s.list.Selected(); t != nil {
			s.unallow(t)
		}
	}
	return nil
}

func (s *serverState) unallow(t *client.Tool) {
	name := termtext.Line(t.Name)
	if _, ok := s.allowed[t.Name]; !ok {
		s.status = name + " is not allowed for this session"
		return
	}
	delete(s.allowed, t.Name)
	s.list.Refilter()
	s.status = name + " is no longer allowed: it asks again before it runs"
}

// denyRule is the deny rule that blocks t, "" when none: policy decides on
// the tool with the session's rules alone, so a refusal can only be a deny
// rule's, and without one there is nothing to decide (it runs per tool per
// listing).
func (s *serverState) denyRule(t *client.Tool) string {
	if s.session == nil || !slices.ContainsFunc(s.session.Target.Rules, func(r policy.Rule) bool { return r.Action == policy.Deny }) {
		return ""
	}
	d := policy.Decide(policy.Request{Tool: t.Name, Hints: t.Hints, Trust: s.session.Target.Trust,
		Mode: policy.Interactive, Rules: s.session.Target.Rules})
	if d.Verdict == policy.Refuse {
		return d.Rule
	}
	return ""
}
