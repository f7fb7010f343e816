package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// dialogText is the screen's text with the dialog's borders taken off and
// its wrapped lines joined, so a sentence reads whole.
func dialogText(screen string) string {
	var parts []string
	for _, l := range strings.Split(ansi.Strip(screen), "\n") {
		if l = strings.Trim(l, " ║╔╗╚╝═"); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// TestConfirmationShowsTheBasis: the dialog says, for each hint the question
// turned on, whether it is the server's claim, the spec's default, or a
// claim mcpsh did not believe, and which rule used it.
func TestConfirmationShowsTheBasis(t *testing.T) {
	s := testSession(t,
		`{"name":"scan","annotations":{"readOnlyHint":true,"openWorldHint":false}}`,
		`{"name":"fetch","annotations":{"readOnlyHint":true}}`)
	tests := []struct {
		tool  string
		trust policy.Trust
		rules []policy.Rule
		want  []string
	}{
		{"scan", policy.Untrusted, nil, []string{
			"untrusted server (its hints are not believed): asks before running",
			"readOnlyHint true — declared, not believed: the server is untrusted (read as false)",
			"destructiveHint absent — the spec's default (true)",
		}},
		{"fetch", policy.Trusted, []policy.Rule{{Pattern: "is:open-world", Action: policy.Confirm}}, []string{
			`rule "is:open-world" asks first: asks before running`,
			`openWorldHint absent — the spec's default (true); rule "is:open-world" matched on it`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			s.Target.Trust, s.Target.Rules = tt.trust, tt.rules
			m := New(context.Background(), Options{Target: &s.Target, NoColor: true, Now: func() time.Time { return fixedNow }})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			m.shown().connReq = m.nextID()
			m.Update(connectedMsg{id: m.shown().connReq, session: s, listing: &client.Listing{Tools: s.Tools()}})
			selectTool(t, m, tt.tool)
			if send(m, "enter"); !confirming(m.shown()) {
				t.Fatalf("enter on %s: mode %v, want the confirmation", tt.tool, m.shown().mode)
			}
			text := dialogText(m.render())
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("the dialog lacks %q:\n%s", w, text)
				}
			}
			if strings.Contains(text, "idempotentHint") {
				t.Errorf("the dialog shows a hint the question did not turn on:\n%s", text)
			}
		})
	}
}
