package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
)

// manyArgsModel is a model on a server with one destructive, open-world
// tool, waiting in the confirmation dialog for a call with 24 arguments.
func manyArgsModel(t *testing.T, w, h int) *Model {
	t.Helper()
	s := testSession(t, `{"name":"bulk_send","title":"Send many messages","annotations":{"destructiveHint":true,"openWorldHint":true}}`)
	m := New(context.Background(), Options{Target: &s.Target, NoColor: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.shown().connReq = m.nextID()
	m.Update(connectedMsg{id: m.shown().connReq, session: s, listing: &client.Listing{Tools: s.Tools()}})
	args := map[string]any{}
	for i := range 24 {
		args[fmt.Sprintf("recipient_%02d", i)] = fmt.Sprintf("person%02d@example.com", i)
	}
	args["body"] = "a message long enough to need wrapping inside the dialog, so that no word of it is cut off before the user answers"
	tool, _ := s.Tool("bulk_send")
	c := m.shown().newCall(tool, args)
	m.shown().mode = modeForm
	m.shown().openConfirm(&pendingCall{call: c, decision: s.Decide(c)})
	m.prepareFrame() // as the Update that opens the dialog does
	return m
}

func TestConfirmFitsAndScrollsEveryArgument(t *testing.T) {
	m := manyArgsModel(t, 80, 24)
	h := 22 // the body of a 24-line screen: the header and the footer take two
	view := m.shown().renderConfirmBody(h)
	assertFits(t, view, 80, h)
	plain := ansi.Strip(view)
	for _, want := range []string{"Run a destructive tool?", "on test", "open-world: it may reach systems outside the server", "y run it", "n/esc cancel", "a allow bulk_send"} {
		if !strings.Contains(strings.Join(strings.Fields(plain), " "), want) {
			t.Errorf("the dialog lacks %q:\n%s", want, plain)
		}
	}
	golden(t, "confirm/many-args-80x24", view)
	if !m.shown().pending.scrolls || !strings.Contains(plain, "lines 1–") {
		t.Fatalf("26 argument lines do not scroll in a 24-line screen:\n%s", plain)
	}
	// Scrolling down shows every argument in turn, the last included, and
	// never answers the dialog.
	seen := map[string]bool{}
	for range 40 {
		for _, l := range strings.Split(ansi.Strip(m.shown().renderConfirmBody(h)), "\n") {
			for i := range 24 {
				if strings.Contains(l, fmt.Sprintf(`"recipient_%02d"`, i)) {
					seen[fmt.Sprint(i)] = true
				}
			}
			if strings.Contains(l, "before the user answers") {
				seen["body"] = true
			}
		}
		if cmd := m.shown().onConfirmExtraKey(keyOf("down")); cmd != nil || !confirming(m.shown()) {
			t.Fatal("scrolling answered the dialog")
		}
	}
	if len(seen) != 25 {
		t.Errorf("only %d of 25 arguments could be reached by scrolling: %v", len(seen), seen)
	}
	golden(t, "confirm/many-args-80x24-end", m.shown().renderConfirmBody(h))
	for range 40 {
		m.shown().onConfirmExtraKey(keyOf("k"))
	}
	if m.shown().pending.argTop != 0 {
		t.Errorf("scrolled back up to line %d, want 0", m.shown().pending.argTop)
	}
	// Through Update: keyhandlers.go routes the dialog's other keys to
	// onConfirmExtraKey.
	m.Update(keyOf("down"))
	if m.shown().pending.argTop == 0 {
		t.Fatal("↓ in the dialog did not scroll the arguments: it does not reach onConfirmExtraKey (keyhandlers.go)")
	}
	if !confirming(m.shown()) {
		t.Errorf("↓ answered the dialog: mode %v", m.shown().mode)
	}
}

func TestConfirmAtOtherSizes(t *testing.T) {
	for _, size := range [][2]int{{50, 16}, {64, 20}, {120, 40}, {160, 48}} {
		m := manyArgsModel(t, size[0], size[1])
		h := size[1] - 2
		view := m.shown().renderConfirmBody(h)
		assertFits(t, view, size[0], h)
		if plain := ansi.Strip(view); !strings.Contains(plain, "y run it") || !strings.Contains(plain, "arguments") {
			t.Errorf("%dx%d: the answers or the arguments are missing:\n%s", size[0], size[1], plain)
		}
	}
	m := manyArgsModel(t, 160, 48)
	golden(t, "confirm/many-args-160x48", m.shown().renderConfirmBody(46))
}
