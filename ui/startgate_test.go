package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// A server its config cannot describe (its env names an unset
// ${UNSET_VAR}) is shown unusable and never started: not when the view
// opens, nor by r, R, l or enter, whichever way it is reached; a project's
// server held for an approval neither, and its keys do not panic (r did:
// connectWith read its missing target). The fixture notes every start; the
// same scenario, usable, is started again by R, so the note is seen.
func TestAServerThatMayNotStartIsNeverStarted(t *testing.T) {
	good, goodState := fixtureChoice(t, "good", "started")
	bad, badState := fixtureChoice(t, "needs-var", "started")
	bad.Problem = "env: ${UNSET_VAR} is not set"
	bad.Target.Env["TOKEN"] = "${UNSET_VAR}" // what the config would have passed on
	held := Choice{Name: "project-held", Transport: "stdio", Where: "npx evil-server", Origin: "claude (.mcp.json)",
		Problem: "held: not approved in claude; open it alone with mcpsh -s claude:project-held"}
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow },
		Choices: []Choice{good, bad, held},
		Login:   func(client.Target) *client.Auth { return &client.Auth{} }})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	d := drive(t, m)
	d.run(m.Init())
	g := server(t, m, "good")
	d.until("good to be ready", func() bool { return ready(g) })
	if n := fixture.CountIn(goodState, "starts", "started"); n != 1 {
		t.Fatalf("good was started %d times, want 1", n)
	}

	for _, name := range []string{"needs-var", "project-held"} {
		s := server(t, m, name)
		for s != m.shown() {
			d.keys("]")
		}
		for _, k := range []string{"r", "R", "l", "enter", "r", "esc", "esc", "r"} {
			d.keys(k)
			if s.session != nil || s.connecting != nil || s.mode != modeConnectFailed {
				t.Fatalf("%s after %q: session %v, connecting %v, mode %v: it was started", name, k, s.session != nil, s.connecting != nil, s.mode)
			}
			if pane(m) == dialogServers {
				d.keys("esc")
			}
		}
		d.keys("r")
		if !strings.Contains(m.shown().status, "cannot be used as configured") {
			t.Errorf("%s: r says %q, not why it cannot start", name, m.shown().status)
		}
		if strings.Contains(screen(m), "r try again") {
			t.Errorf("%s: the footer offers r:\n%s", name, screen(m))
		}
		if p, _ := s.phase(); p != phaseUnusable {
			t.Errorf("%s: the bar says %v, want unusable", name, p)
		}
	}

	// R starts good again, and the fixture notes it: the note is there to see.
	for m.shown() != g {
		d.keys("]")
	}
	d.keys("R")
	d.until("good to start again", func() bool { return ready(g) && fixture.CountIn(goodState, "starts", "started") == 2 })
	if n := fixture.CountIn(badState, "starts", "started"); n != 0 {
		t.Fatalf("needs-var was started %d times", n)
	}
}
