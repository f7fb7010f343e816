package ui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/listing"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/scroll"
)

// What the resources and prompts views share: taking a listing's answer,
// its rows under their headings (as internal/listing groups them for the
// batch commands too), moving in the list, and drawing the view.

// listState is what the resources and prompts views keep besides their
// listing.
type listState struct {
	stopped bool // the listing stopped at mcpsh's budget: more were not listed
	err     string
	req     int // the listing in flight
	list    itemList
}

// took takes a listing's answer, what naming its items; it reports whether
// the listing came, whole or stopped at mcpsh's budget. A failure is kept
// as the view's error, and said in the status line when the listing before
// it stays on screen.
func (s *serverState) took(l *listState, what string, got bool, err error, shown bool) bool {
	if err != nil && !s.partial(err, got) {
		l.err = termtext.Line(err.Error())
		if shown {
			s.status = "listing the " + what + " again failed: " + l.err
		}
		return false
	}
	l.err, l.stopped = "", err != nil
	return true
}

// partial reports a listing that stopped at mcpsh's budget for one listing
// and kept what came before (got): that much is shown, as the commands
// print it, and the error is said as a notice, in the status line and the
// server pane.
func (s *serverState) partial(err error, got bool) bool {
	var le *client.ListLimitError
	if !got || !errors.As(err, &le) || !le.Partial {
		return false
	}
	text := termtext.Line(err.Error())
	s.status = text
	s.serverPane.Append(client.Event{Kind: client.EventWarning, Time: s.now(), Text: text})
	return true
}

// listRows are a listing's groups as the list's rows, each under its
// heading; stopped marks the first heading, as the listing stopped short.
func listRows(groups []listing.Group, stopped bool) []listItem {
	var rows []listItem
	for i, g := range groups {
		rows = append(rows, listItem{heading: g.Heading(stopped && i == 0)})
		for _, it := range g.Items {
			rows = append(rows, listItem{Item: it})
		}
	}
	return rows
}

// noneCame is what an empty list says: that the server lists none, or that
// its listing stopped before any came.
func (s *serverState) noneCame(stopped bool, what string) string {
	if stopped {
		return "\n  " + s.st.Warning.Render("the listing stopped at mcpsh's limit before any "+what+" came: S says why")
	}
	return "\n  " + s.st.Muted.Render("the server lists no "+what)
}

// warnAll puts the client's warnings about a listing in the server pane.
func (s *serverState) warnAll(warnings []string) {
	for _, w := range warnings {
		s.serverPane.Append(client.Event{Kind: client.EventWarning, Time: s.now(), Text: w})
	}
}

// moveList applies the list movement keys; it reports whether msg was one.
func moveList(l *itemList, k *keymap.KeyMap, msg tea.KeyPressMsg, page int) bool {
	n, ok := scroll.CursorMove(msg, k, max(page, 1), len(l.rows))
	if ok {
		l.Move(n)
	}
	return ok
}

// renderListing draws the resources or prompts view, what naming its
// items: why there is no list, else the list beside the selected item's
// detail. got says the listing came; none that it holds nothing.
func (s *serverState) renderListing(h int, v serverView, what string, l *listState, got, none bool, detail func() []string) string {
	switch {
	case !s.offers(v):
		return strings.Join(s.notOffered(what, what), "\n")
	case !got && l.err != "":
		return strings.Join(s.problem("listing the "+what+" failed", l.err), "\n")
	case !got:
		return "\n  " + s.st.Muted.Render("listing the "+what+"…")
	case none:
		return s.noneCame(l.stopped, what)
	}
	left := append(s.filterLine(s.listWidth()), strings.Split(l.list.View(s.st, s.listWidth(), s.listHeight(h)), "\n")...)
	return s.renderSplit(left, detail(), h)
}

// problem is a failure drawn in a view: what failed, then why, wrapped.
func (s *serverState) problem(what, why string) []string {
	w := &layout.Lines{Width: max(s.width, 1)}
	w.Blank()
	w.Add(s.st.Error.Render(what))
	w.Wrap(why, s.st.Row)
	return w.Out
}
