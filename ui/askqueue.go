package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/keymap"
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
func (s *serverState) admit() string {
	switch {
	case s.muted:
		return "its requests are muted (" + s.keys.Mute.Help().Key + " unmutes them)"
	case len(s.asks) >= askQueueMax:
		return fmt.Sprintf("%d of its requests already wait, the most one server may have", len(s.asks))
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
func (s *serverState) refuse(a *serverAsk, why string) {
	declineNow(a)
	s.declined++
	if why != s.refusing {
		s.refusing = why
		s.serverPane.Append(client.Event{Kind: client.EventRequest, Time: s.now(),
			Text: "declining the server's requests at once: " + why})
	}
}

// queueEmptied forgets what belonged to the requests that waited: whether
// they were put aside, and how many were declined at once beside them,
// which the user has seen in their dialogs and the server pane keeps.
func (s *serverState) queueEmptied() {
	s.asksAside, s.declined = false, 0
}

// declineAll declines every request of the server, the one on
// screen included, and says so.
func (s *serverState) declineAll(why string) tea.Cmd {
	n := len(s.asks)
	for _, a := range s.asks {
		declineNow(a)
	}
	s.asks = nil
	s.setAsking(nil)
	s.queueEmptied()
	if n > 0 {
		s.serverPane.Append(client.Event{Kind: client.EventRequest, Time: s.now(),
			Text: "declined " + units.Plural(n, "waiting request") + ": " + why})
	}
	s.layout()
	return nil
}

// setMuted mutes or unmutes the server; muting declines what
// it has waiting.
func (s *serverState) setMuted(on bool) tea.Cmd {
	s.muted = on
	s.refusing = ""
	name := termtext.Line(s.name())
	if !on {
		s.status = name + "'s requests reach you again"
		s.serverPane.Append(client.Event{Kind: client.EventRequest, Time: s.now(), Text: "unmuted: the server's requests reach the user again"})
		return nil
	}
	s.status = name + " is muted: its requests are declined at once (" + s.keys.Mute.Help().Key + " unmutes it)"
	s.serverPane.Append(client.Event{Kind: client.EventRequest, Time: s.now(), Text: "muted by the user: its requests are declined at once"})
	return s.declineAll("the user muted the server")
}

// putAside takes the server's requests off the screen: they wait, the bar
// marks the server, and nothing brings it back on screen until the user
// asks for them (AskLater again).
func (s *serverState) putAside() tea.Cmd {
	s.asksAside = true
	s.setAsking(nil)
	s.layout()
	return nil
}

// takeUp shows the requests put aside again.
func (s *serverState) takeUp() tea.Cmd {
	s.asksAside = false
	return s.openAsk()
}

// onAskQueueKey handles the keys that act on the server's requests as a
// whole: in its dialog, and on its screen when they are aside.
func (s *serverState) onAskQueueKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k, asking := s.keys, s.asking() != nil
	switch {
	case asking && key.Matches(msg, k.AskLater):
		return s.putAside(), true
	case asking && key.Matches(msg, k.DeclineAll):
		return s.declineAll("the user declined them all"), true
	case asking && key.Matches(msg, k.MuteAsks):
		return s.setMuted(true), true
	case !asking && s.asksAside && len(s.asks) > 0 && key.Matches(msg, k.AskLater):
		return s.takeUp(), true
	}
	return nil, false
}

// askQueueBindings are those keys, as they work now, for the footer.
func (s *serverState) askQueueBindings() []key.Binding {
	k := s.keys
	if s.asking() == nil {
		if s.asksAside && len(s.asks) > 0 {
			n := len(s.asks)
			return []key.Binding{keymap.Relabel(k.AskLater, "answer its "+units.Plural(n, "request"))}
		}
		return nil
	}
	b := []key.Binding{k.AskLater}
	if len(s.asks) > 1 {
		b = append(b, k.DeclineAll)
	}
	return append(b, k.MuteAsks)
}
