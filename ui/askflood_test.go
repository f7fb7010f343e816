package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// declines counts the answers the fixture got that declined its request.
func declines(state string) int {
	n := 0
	for _, a := range fixture.Answers(state) {
		if strings.Contains(a, `"action":"decline"`) {
			n++
		}
	}
	return n
}

// A workspace server asks for input 300 times at once (fixture scenario
// elicit-flood): at most askQueueMax of its requests wait, the rest are
// declined at once and its output says so; the user can put them aside
// and switch servers (a request that arrives meanwhile waits with the
// others and does not pull the view back), take them up again, decline
// them all at once, and mute the server, whose requests are then declined
// without a dialog until it is unmuted. The count of requests declined at
// once is the flood's: once its queue is empty, the next dialog does not
// repeat it.
func TestAFloodOfRequestsDoesNotHoldTheScreen(t *testing.T) {
	c, state := fixtureChoice(t, "flood", "elicit-flood")
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow },
		Choices: []Choice{demoChoice("alpha", demo.New(), policy.Trusted), c}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	d := drive(t, m)
	d.run(m.Init())
	alpha, flood := server(t, m, "alpha"), server(t, m, "flood")
	d.until("both servers to be ready", func() bool { return ready(alpha) && ready(flood) })

	// The flood, from alpha's screen: flood takes the screen with its first
	// request, and every request past askQueueMax is declined at once.
	d.keys("]")
	d.callTool("flood")
	d.keys("[")
	d.until("the flood to be declined but for the queue", func() bool {
		return declines(state) == fixture.Flood-askQueueMax && len(flood.asks) == askQueueMax
	})
	if m.shown() != flood || m.shown().asking() == nil {
		t.Fatalf("the flood's first request is not on screen: on %s", m.shown().name())
	}
	want := fmt.Sprintf("3 more requests wait after this one · %d declined at once (at most %d wait)", fixture.Flood-askQueueMax, askQueueMax)
	if scr := screen(m); !strings.Contains(scr, want) || !strings.Contains(scr, "ctrl+l later") {
		t.Errorf("the dialog does not say %q, or offer ctrl+l:\n%s", want, scr)
	}
	// ctrl+x declines the one on screen: three wait, with room for one more.
	d.keys("ctrl+x")
	d.until("the request on screen to be declined", func() bool {
		return declines(state) == fixture.Flood-askQueueMax+1 && len(flood.asks) == askQueueMax-1
	})
	// ctrl+l puts them aside: the view goes back to alpha, and the switch
	// keys work; flood's requests still wait, and the bar says so.
	d.keys("ctrl+l")
	if m.shown() != alpha || m.shown().asking() != nil {
		t.Fatalf("after ctrl+l: on %s, dialog %v", m.shown().name(), m.shown().asking() != nil)
	}
	if scr := screen(m); !strings.Contains(scr, "2 tools ? 3 asks") {
		t.Errorf("the bar does not say flood's requests wait:\n%s", scr)
	}
	d.keys("]", "[", "]")
	if m.shown() != flood || m.shown().asking() != nil {
		t.Fatalf("] [ ]: on %s, dialog %v", m.shown().name(), m.shown().asking() != nil)
	}
	d.keys("S", "home") // its first lines: the client says "decline" for each request after
	if scr := screen(m); !strings.Contains(scr, "declining the server's requests at once: 4 of its requests already wait") {
		t.Errorf("the server pane does not say why requests were declined:\n%s", scr)
	}
	d.keys("esc")
	d.keys("[")
	// flood asks once more (a ping makes it) while the user is on alpha:
	// the request waits with the others, and the view stays.
	go flood.session.Ping(context.Background())
	d.until("flood's new request to wait with the others", func() bool { return len(flood.asks) == askQueueMax })
	if m.shown() != alpha || flood.asking() != nil {
		t.Fatalf("flood's new request pulled the view back: on %s, dialog %v", m.shown().name(), flood.asking() != nil)
	}
	d.keys("]")
	if scr := screen(m); !strings.Contains(scr, "ctrl+l answer its 4 requests") {
		t.Errorf("flood's screen does not offer its requests:\n%s", scr)
	}
	d.keys("ctrl+l")
	if m.shown().asking() == nil {
		t.Fatal("ctrl+l did not take the requests up again")
	}

	// ctrl+y declines all four; the server, which waited for every answer
	// to its flood, answers the call.
	d.keys("ctrl+y")
	d.until("the flood's call to end", func() bool { return declines(state) == fixture.Flood+1 && m.shown().mode == modeResult })
	if len(flood.asks) != 0 || m.shown().asking() != nil {
		t.Fatalf("after ctrl+y: %d requests wait", len(flood.asks))
	}

	// The next request's dialog does not count the flood's refusals again.
	d.keys("esc", "esc")
	d.callTool("ask_once")
	d.until("ask_once's request", func() bool { return m.shown().asking() != nil })
	if scr := screen(m); strings.Contains(scr, "declined at once") {
		t.Errorf("the dialog still counts the flood's refusals:\n%s", scr)
	}
	// ctrl+q mutes it: the request on screen is declined, and the next ones
	// too, at once, without a dialog, until M unmutes it.
	d.keys("ctrl+q")
	d.until("the muted request to be declined", func() bool { return declines(state) == fixture.Flood+2 && m.shown().mode == modeResult })
	d.keys("esc", "esc")
	d.callTool("ask_once")
	d.until("the next request to be declined at once", func() bool { return declines(state) == fixture.Flood+3 && m.shown().mode == modeResult })
	if m.shown().asking() != nil || !flood.muted || !strings.Contains(screen(m), "muted") {
		t.Fatalf("muted: dialog %v, muted %v:\n%s", m.shown().asking() != nil, flood.muted, screen(m))
	}
	d.keys("esc", "esc", "M")
	d.callTool("ask_once")
	d.until("the request after unmuting to reach the screen", func() bool { return m.shown().asking() != nil })
	d.keys("ctrl+x")
	d.until("its call to end", func() bool { return m.shown().mode == modeResult })
}
