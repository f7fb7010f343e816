package watch

import (
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
)

// evil is text a server or a host could send: escapes that would move the
// cursor, retitle the window or clear the screen, a bidi override,
// controls, and characters whose width terminals dispute.
const evil = "x\x1b[2J\x1b]0;pwned\x07\u202e\r\n\tz\u00ad\u0600"

// Every text an event carries (the proxy's server and transport, the
// host, the tool, its title, the arguments, the reason, the rule, the
// error, the question) is drawn safe on every screen, colourless and
// measured as tmux draws it.
func TestTheirTextIsMadeSafeEverywhere(t *testing.T) {
	m, _ := newTest(t, true, 80, 24)
	i := info("p1", evil, evil, evil, t0)
	i.Server.Transport, i.Server.Protocol = evil, evil
	ce := started("p1", 1, 0, evil, evil, policy.ClassDestructive, []string{evil}, map[string]any{evil: evil})
	ce.Call.Host = &client.Peer{Name: evil, Version: evil, Protocol: evil}
	q := asked("p1", "q1", 1, evil, policy.ClassDestructive, map[string]any{evil: evil})
	q.Question.Server, q.Question.Title, q.Question.Why, q.Question.Rule = evil, evil, evil, evil
	q.Question.Host = client.Peer{Name: evil, Version: evil}
	feed(m, appeared(i), ce, q)
	check := func(what string) {
		t.Helper()
		for _, size := range [][2]int{{80, 24}, {132, 40}} {
			m.Update(tea_size(size[0], size[1]))
			got := m.render()
			uitest.AssertTerminalSafe(t, what, got)
			uitest.AssertWidth(t, what, got, size[0])
			if strings.Contains(got, "pwned") && strings.Contains(got, "\x07") {
				t.Errorf("%s: the title sequence reached the screen", what)
			}
		}
	}
	arm(m)
	check("the question")
	press(m, "n")
	feed(m, console.Event{Kind: "call-decided", Proxy: "p1", Call: &console.CallEvent{Event: console.CallDecided, ID: 1, Decision: policy.Refuse, Reason: evil, Rule: evil,
		Basis: []policy.Basis{{Field: policy.FieldDestructive, Rule: evil, Decided: true, Believed: true}}}},
		ended("p1", 1, client.Status(evil), 3, 2, evil), console.Event{Kind: console.ProxyUpdated, Proxy: "p1", Info: i})
	m.notice = notice{}
	check("the list")
	press(m, "]")
	check("the proxy's calls")
	press(m, "enter")
	check("the opened call")
	press(m, "esc", "/")
	m.Update(pasteOf(evil))
	check("the filter")
}
