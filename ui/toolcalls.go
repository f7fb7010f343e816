package ui

import (
	"fmt"
	"github.com/mcpsh/mcpsh/ui/layout"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// Calls started from the tool list. Each goes through the form and runForm,
// the one path to a call: the form is opened first so that an example that
// breaks the schema, or a confirmation the user declines, lands in it with
// the arguments filled in; and runForm decides, so a destructive tool still
// asks and a denied one is refused.

// callWithExample runs t with its nth input example (1-based).
func (m *Model) callWithExample(t *client.Tool, n int) tea.Cmd {
	if n < 1 || n > len(t.Examples) {
		m.status = fmt.Sprintf("%s has %d input example%s", termtext.Line(t.Name), len(t.Examples), layout.Plural(len(t.Examples)))
		return nil
	}
	m.openForm(t, nil)
	m.form.FillExample(n)
	return m.runForm()
}

// callTool is enter on a tool: a tool that takes no arguments runs at once;
// any other opens its form.
func (m *Model) callTool(t *client.Tool) tea.Cmd {
	m.openForm(t, nil)
	if !m.form.NothingToFill() {
		return nil
	}
	return m.runForm()
}

// onListExtraKey handles the tool list's keys beyond moving and calling:
// u takes back an allowance given with a in the confirmation dialog.
func (m *Model) onListExtraKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Unallow) {
		if t := m.list.Selected(); t != nil {
			m.unallow(t)
		}
	}
	return nil
}

func (m *Model) unallow(t *client.Tool) {
	name := termtext.Line(t.Name)
	if _, ok := m.allowed[t.Name]; !ok {
		m.status = name + " is not allowed for this session"
		return
	}
	delete(m.allowed, t.Name)
	m.list.Refilter()
	m.status = name + " is no longer allowed: it asks again before it runs"
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
