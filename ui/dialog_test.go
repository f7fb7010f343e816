package ui

import (
	"context"
	"encoding/json"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
)

// A dialog belongs to its server on the one stack: while beta's request is
// on screen, alpha's request that came after it waits for alpha, and the
// keys typed on beta answer beta's; alpha's confirmation, left under beta's
// request, is still alpha's, unanswered, when the view goes back to alpha.
func TestADialogStaysWithItsServer(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", demo.New(), policy.Trusted),
		demoChoice("beta", demo.New(), policy.Trusted),
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	connectNow(t, m)
	d := drive(t, m)
	d.run(waitInbox(m.inbox))
	a, b := m.servers[0], m.servers[1]
	ask := func(s *serverState, server string) chan *client.ElicitResponse {
		got := make(chan *client.ElicitResponse, 1)
		go func() {
			r, _ := m.inbox.elicitFor(s)(context.Background(), &client.ElicitRequest{Server: server, Mode: "form", Message: "Tell us about you", Schema: json.RawMessage(featureForm)})
			got <- r
		}()
		return got
	}

	// alpha's confirmation, then beta's request takes the screen.
	d.callTool("pop_note")
	if !confirming(a) || topID(m) != dialogConfirm {
		t.Fatalf("pop_note did not ask first: top %q\n%s", topID(m), screen(m))
	}
	fromB := ask(b, "beta")
	d.until("beta's request on screen", func() bool { return m.shown() == b && b.asking() != nil })
	// Then alpha asks too: beta's request stays on top, for beta.
	fromA := ask(a, "alpha")
	d.until("alpha's request to arrive", func() bool { return a.asking() != nil })
	if m.shown() != b || m.top() != m.dialogs.of(b, dialogAsk) {
		t.Fatalf("alpha's request took beta's place: on %s, top %q of %v", m.shown().name(), topID(m), m.top().owner() == a)
	}
	// y and a are alpha's confirmation's answers; on beta they are text.
	d.keys("y", "a", "ctrl+x")
	if r := <-fromB; r == nil || r.Action != client.ElicitDecline {
		t.Fatalf("beta got %+v", r)
	}
	select {
	case r := <-fromA:
		t.Fatalf("ctrl+x on beta answered alpha's request: %+v", r)
	default:
	}
	if !confirming(a) || a.pending.call.Approved || a.running != nil {
		t.Fatalf("keys typed on beta reached alpha's confirmation: pending %v, running %v", a.pending != nil, a.running != nil)
	}
	// Back on alpha: its request on top of its confirmation, then the confirmation.
	if m.shown() != a || topID(m) != dialogAsk {
		t.Fatalf("after beta's answer: on %s, top %q", m.shown().name(), topID(m))
	}
	d.keys("ctrl+x")
	if r := <-fromA; r == nil || r.Action != client.ElicitDecline {
		t.Fatalf("alpha got %+v", r)
	}
	if topID(m) != dialogConfirm || !confirming(a) {
		t.Fatalf("alpha's confirmation is gone: top %q", topID(m))
	}
}
