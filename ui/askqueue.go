package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
)

// A server's requests are its own: they wait in its queue, and a server
// cannot hold the user. It may have at most askQueueMax waiting; one more
// is declined at once, and the server pane says why. The user can put a
// server's requests aside (AskLater) and go to another server, decline all
// of them at once (DeclineAll), and mute the server, whose requests are then
// declined at once until it is unmuted (MuteAsks, Mute).

// askQueueMax is how many of one server's requests may wait for the user:
// the one on screen and three more. No real server asks more at once.
const askQueueMax = 4

// admit says why a request that just arrived is declined at once, or ""
// when it may wait for the user.
func (m *Model) admit() string {
	switch {
	case m.muted:
		return "its requests are muted (" + m.keys.Mute.Help().Key + " unmutes them)"
	case len(m.asks) >= askQueueMax:
		return fmt.Sprintf("%d of its requests already wait, the most one server may have", len(m.asks))
	}
	return ""
}

// declineNow answers a request no one will see: declined.
func declineNow(a *serverAsk) {
	r := askReply{err: client.ErrDeclined}
	if a.elicit != nil {
		r = askReply{elicit: &client.ElicitResponse{Action: client.ElicitDecline}}
	}
	a.reply <- r
	close(a.answered)
}

// refuse declines a request at once; the server pane says why, once for
// every run of requests declined for the same reason.
func (m *Model) refuse(a *serverAsk, why string) {
	declineNow(a)
	m.declined++
	if why != m.refusing {
		m.refusing = why
		m.serverPane.Append(client.Event{Kind: client.EventRequest, Time: m.now(),
			Text: "declining the server's requests at once: " + why})
	}
}

// queueEmptied forgets what belonged to the requests that waited: whether
// they were put aside, and how many were declined at once beside them,
// which the user has seen in their dialogs and the server pane keeps.
func (m *Model) queueEmptied() {
	m.asksAside, m.declined = false, 0
}

// declineAll declines every request of the server embedded now, the one on
// screen included, and says so.
func (m *Model) declineAll(why string) tea.Cmd {
	n := len(m.asks)
	for _, a := range m.asks {
		declineNow(a)
	}
	m.asks, m.dialog = nil, nil
	m.queueEmptied()
	if n > 0 {
		m.serverPane.Append(client.Event{Kind: client.EventRequest, Time: m.now(),
			Text: fmt.Sprintf("declined %d waiting request%s: %s", n, layout.Plural(n), why)})
	}
	m.layout()
	return nil
}

// setMuted mutes or unmutes the server embedded now; muting declines what
// it has waiting.
func (m *Model) setMuted(on bool) tea.Cmd {
	m.muted = on
	m.refusing = ""
	name := termtext.Line(m.name())
	if !on {
		m.status = name + "'s requests reach you again"
		m.serverPane.Append(client.Event{Kind: client.EventRequest, Time: m.now(), Text: "unmuted: the server's requests reach the user again"})
		return nil
	}
	m.status = name + " is muted: its requests are declined at once (" + m.keys.Mute.Help().Key + " unmutes it)"
	m.serverPane.Append(client.Event{Kind: client.EventRequest, Time: m.now(), Text: "muted by the user: its requests are declined at once"})
	return m.declineAll("the user muted the server")
}

// putAside takes the server's requests off the screen: they wait, the bar
// marks the server, and nothing brings it back on screen until the user
// asks for them (AskLater again).
func (m *Model) putAside() tea.Cmd {
	m.asksAside, m.dialog = true, nil
	m.layout()
	return nil
}

// takeUp shows the requests put aside again.
func (m *Model) takeUp() tea.Cmd {
	m.asksAside = false
	return m.openAsk()
}

// onAskQueueKey handles the keys that act on the server's requests as a
// whole: in its dialog, and on its screen when they are aside.
func (m *Model) onAskQueueKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case m.dialog != nil && key.Matches(msg, k.AskLater):
		return m.putAside(), true
	case m.dialog != nil && key.Matches(msg, k.DeclineAll):
		return m.declineAll("the user declined them all"), true
	case m.dialog != nil && key.Matches(msg, k.MuteAsks):
		return m.setMuted(true), true
	case m.dialog == nil && m.asksAside && len(m.asks) > 0 && key.Matches(msg, k.AskLater):
		return m.takeUp(), true
	}
	return nil, false
}

// askQueueBindings are those keys, as they work now, for the footer.
func (m *Model) askQueueBindings() []key.Binding {
	k := m.keys
	if m.dialog == nil {
		if m.asksAside && len(m.asks) > 0 {
			n := len(m.asks)
			return []key.Binding{keymap.Relabel(k.AskLater, fmt.Sprintf("answer its %d request%s", n, layout.Plural(n)))}
		}
		return nil
	}
	b := []key.Binding{k.AskLater}
	if len(m.asks) > 1 {
		b = append(b, k.DeclineAll)
	}
	return append(b, k.MuteAsks)
}
