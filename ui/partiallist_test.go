package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A server whose resource and prompt listings never end (fixture scenario
// endless-small: a new cursor on every page, three resources a page and no
// prompts at all) stops at mcpsh's budget for one listing. What came
// before the stop is shown, as the commands print it, with the stop as a
// notice: the list's heading says it stopped (or the view, when nothing
// came), and the server pane says why.
func TestAListingStoppedAtTheBudgetShowsWhatCame(t *testing.T) {
	t.Parallel() // 20,000 pages from a server of its own
	c, _ := fixtureChoice(t, "lists", "endless-small")
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow }, Choices: []Choice{c}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	d := drive(t, m)
	// Each listing follows the server's cursors for mcpsh's 10,000 pages
	// before it stops: about 15 s under -race on an idle two-core machine,
	// several times that on a loaded one. The guard only catches a hang.
	d.guard = 5 * time.Minute
	d.run(m.Init())
	srv := server(t, m, "lists")
	d.until("the server to be ready", func() bool { return ready(srv) })
	d.keys("r")
	d.until("the resources to be listed", func() bool { return srv.resources.listing != nil })
	if scr := screen(m); !strings.Contains(scr, "Resources (30000, stopped)") || !strings.Contains(scr, "t0-0") {
		t.Errorf("the resources that came are not shown as a listing that stopped:\n%s", scr)
	}
	d.keys("p")
	d.until("the prompts to be listed", func() bool { return srv.prompts.listing != nil })
	if scr := screen(m); !strings.Contains(scr, "the listing stopped at mcpsh's limit before any prompts came: S says why") {
		t.Errorf("an empty listing that stopped reads as one that ended:\n%s", scr)
	}
	d.keys("S", "home")
	scr := screen(m)
	for _, list := range []string{"resources", "prompts"} {
		if !strings.Contains(scr, "listing "+list+" of lists stopped at mcpsh's limit of 10000 pages") {
			t.Errorf("the server pane does not say why the %s stopped:\n%s", list, scr)
		}
	}
}
