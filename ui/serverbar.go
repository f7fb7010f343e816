package ui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
)

// The server bar: every server of the workspace with its state, the one on
// screen picked out. It is a line under the header, or from sidebarMin
// columns a sidebar beside the body. A workspace of one has neither.
const (
	sidebarMin    = 140 // from this width the servers are a sidebar
	sidebarW      = 26  // the sidebar's text, then " │ "
	sidebarGap    = 3
	barNameMax    = 20 // a server's name in the bar
	barReasonMax  = 34 // why a server failed, in the bar
	sideReasonMax = 2  // lines of it in the sidebar
)

func (m *Model) sidebarShown() bool { return m.workspace() && m.screenW >= sidebarMin }
func (m *Model) barShown() bool     { return m.workspace() && m.screenW < sidebarMin }

// resize takes the terminal's size: the body is narrower by the sidebar.
func (m *Model) resize(w, h int) {
	m.screenW, m.height = w, h
	m.width = w
	if m.sidebarShown() {
		m.width = max(w-sidebarW-sidebarGap, 1)
	}
	m.shown().layout()
	m.layoutShared()
}

// serverPhase is what a server is doing, for the bar.
type serverPhase int

const (
	phaseConnecting serverPhase = iota
	phaseReady
	phaseLogin  // it wants a login
	phaseFailed // connecting failed
	phaseUnusable
	phaseEnded // its connection ended on its own: the server exited
)

// phaseWords say the phases that end a server's use, with a ✗ and why.
var phaseWords = map[serverPhase]string{phaseFailed: "failed", phaseUnusable: "unusable", phaseEnded: "ended"}

// phase is s's state, and for a failure the reason, safe to draw.
func (s *serverState) phase() (serverPhase, string) {
	var lre *client.LoginRequiredError
	switch {
	case s.unusable():
		return phaseUnusable, termtext.Line(s.spec.Problem)
	case s.session != nil && s.mode != modeConnecting && s.mode != modeLogin && s.ended != "":
		return phaseEnded, strings.TrimPrefix(s.ended, "the server ")
	case s.session != nil && s.mode != modeConnecting && s.mode != modeLogin:
		return phaseReady, ""
	case s.mode == modeConnectFailed && errors.As(s.connErr, &lre):
		return phaseLogin, ""
	case s.mode == modeConnectFailed && s.connErr != nil:
		return phaseFailed, failReason(s.connErr)
	}
	return phaseConnecting, ""
}

// failReason is why connecting failed, short: how the server ended when it
// did (its exit status), else the error without the "connecting to…" that
// the bar says already; secrets out, safe to draw.
func failReason(err error) string {
	var ce *client.ConnectError
	if !errors.As(err, &ce) || ce.Err == nil {
		return termtext.Line(err.Error())
	}
	r := ce.Err.Error()
	if d, _, _ := strings.Cut(ce.Detail, "\n"); d != "" {
		d, _, _ = strings.Cut(d, ";")
		r = d
	}
	return termtext.Line(ce.Target.Redact(r))
}

// How much an entry of the bar says: everything, its state in a word, or
// its state as a mark.
type detail int

const (
	detailLong detail = iota
	detailWord
	detailMark
)

// serverEntry is one server's entry in the bar: its name and state.
func (m *Model) serverEntry(s *serverState, d detail) string {
	return termtext.Truncate(termtext.Line(s.name()), barNameMax) + " " + m.stateText(s, d)
}

// stateText is what a server is doing, with its marks: untrusted, and
// waiting on the user.
func (m *Model) stateText(s *serverState, d detail) string {
	st := m.st
	phase, reason := s.phase()
	var state string
	switch phase {
	case phaseConnecting:
		state = m.spin() + " " + st.Muted.Render("connecting")
		if d == detailMark {
			state = m.spin()
		}
	case phaseReady:
		n := len(s.list.tools)
		state = st.Muted.Render(units.Plural(n, "tool"))
		if d == detailMark {
			state = st.Muted.Render(fmt.Sprint(n))
		}
		if s.running != nil {
			state = m.spin() + " " + state
		}
	case phaseLogin:
		state = st.Warning.Render("needs login")
		if d == detailMark {
			state = st.Warning.Render("login")
		}
	case phaseFailed, phaseUnusable, phaseEnded:
		word := phaseWords[phase]
		switch d {
		case detailLong:
			state = st.Error.Render("✗ " + termtext.Truncate(word+": "+reason, barReasonMax))
		case detailWord:
			state = st.Error.Render("✗ " + word)
		default:
			state = st.Error.Render("✗")
		}
	}
	out := state
	if s.target != nil && s.target.Trust != policy.Trusted {
		mark := "untrusted"
		if d == detailMark {
			mark = overlays.MarkUntrusted
		}
		out += " " + st.Warning.Render(mark)
	}
	switch n := len(s.asks); {
	case s.muted:
		out += " " + st.Warning.Render("muted")
	case n > 0 && d == detailMark:
		out += " " + st.Warning.Render(fmt.Sprintf("?%d", n))
	case n > 0:
		out += " " + st.Warning.Render("? "+units.Plural(n, "ask"))
	}
	return out
}

// serverBar is the bar's line: the servers, the one on screen picked out,
// and the keys that switch when there is room. Entries are shortened, then
// the bar scrolls to keep the one on screen in view.
func (m *Model) serverBar() string {
	w := m.screenW
	sw := m.keys.PrevServer.Help().Key + "/" + m.keys.NextServer.Help().Key + " switch"
	var entries []string
	for _, d := range []detail{detailLong, detailWord, detailMark} {
		entries = m.barEntries(d)
		if barWidth(entries) <= w {
			break
		}
	}
	if barWidth(entries) > w {
		entries = m.barWindow(entries, w)
	}
	bar := strings.Join(entries, m.st.Muted.Render("│"))
	for _, hint := range []string{sw + " · " + m.keys.PickServer.Help().Key + " pick", sw} {
		if ansi.StringWidth(bar)+2+ansi.StringWidth(hint) <= w {
			return termtext.Pad(bar, w-ansi.StringWidth(hint)) + m.st.Muted.Render(hint)
		}
	}
	return termtext.Truncate(bar, w)
}

// barEntries are the bar's entries; the one on screen says at least its
// state in a word (its screen says the rest).
func (m *Model) barEntries(d detail) []string {
	out := make([]string, len(m.servers))
	for i, s := range m.servers {
		e := " " + m.serverEntry(s, d) + " "
		if i == m.cur {
			cd := d
			if cd == detailMark {
				cd = detailWord
			}
			// Marked in words as well as in reverse, for NO_COLOR and for
			// anything that reads the screen as text.
			e = m.st.RowSelected.Render("›" + ansi.Strip(m.serverEntry(s, cd)) + " ")
		}
		out[i] = e
	}
	return out
}

func barWidth(entries []string) int {
	w := max(len(entries)-1, 0)
	for _, e := range entries {
		w += ansi.StringWidth(e)
	}
	return w
}

// barWindow keeps the entries around the one on screen that fit in w, and
// says how many are left out on each side.
func (m *Model) barWindow(entries []string, w int) []string {
	lo, hi := m.cur, m.cur+1
	more := func(n int, s string) string { return m.st.Muted.Render(fmt.Sprintf(s, n)) }
	fits := func(lo, hi int) bool {
		extra := 0
		if lo > 0 {
			extra += len("‹ 99 ")
		}
		if hi < len(entries) {
			extra += len(" 99 ›")
		}
		return barWidth(entries[lo:hi])+extra <= w
	}
	for {
		grew := false
		if hi < len(entries) && fits(lo, hi+1) {
			hi, grew = hi+1, true
		}
		if lo > 0 && fits(lo-1, hi) {
			lo, grew = lo-1, true
		}
		if !grew {
			break
		}
	}
	out := append([]string(nil), entries[lo:hi]...)
	if lo > 0 {
		out[0] = more(lo, "‹ %d ") + out[0]
	}
	if hi < len(entries) {
		out[len(out)-1] += more(len(entries)-hi, " %d ›")
	}
	return out
}

// sidebar is the servers as a column of h lines: each server's name, then
// its state, a failure's reason on up to sideReasonMax lines.
func (m *Model) sidebar(h int) []string {
	st := m.st
	w := sidebarW
	out := []string{st.Title.Render("Servers") + st.Muted.Render(fmt.Sprintf(" %d", len(m.servers)))}
	for i, s := range m.servers {
		cursor := "  "
		if i == m.cur {
			cursor = "› "
		}
		name := cursor + termtext.Truncate(termtext.Line(s.name()), w-2)
		if i == m.cur {
			name = st.RowSelected.Render(termtext.Pad(name, w))
		}
		out = append(out, name)
		phase, reason := s.phase()
		switch phase {
		case phaseFailed, phaseUnusable, phaseEnded:
			lines := layout.Wrap("✗ "+phaseWords[phase]+": "+reason, w-2)
			if len(lines) > sideReasonMax {
				lines = lines[:sideReasonMax]
				lines[sideReasonMax-1] = termtext.Truncate(lines[sideReasonMax-1]+"…", w-2)
			}
			for _, l := range lines {
				out = append(out, "  "+st.Error.Render(l))
			}
			continue
		}
		out = append(out, "  "+termtext.Truncate(m.stateText(s, detailLong), w-2))
	}
	k := m.keys
	out = append(out, "", st.Muted.Render(termtext.Truncate(k.PrevServer.Help().Key+" "+k.NextServer.Help().Key+" switch · "+m.keys.PickServer.Help().Key+" pick", w)),
		st.Muted.Render(termtext.Truncate(k.Reconnect.Help().Key+" reconnect · "+k.Traffic.Help().Key+" traffic", w)))
	return layout.FitLines(strings.Join(out, "\n"), w, h)
}

// withSidebar puts the sidebar left of the body's lines.
func (m *Model) withSidebar(body []string, h int) []string {
	side := m.sidebar(h)
	sep := m.st.Muted.Render("│")
	out := make([]string, len(body))
	for i := range body {
		out[i] = termtext.Pad(side[i], sidebarW) + " " + sep + " " + body[i]
	}
	return out
}

// spin is the spinner's frame, without the space the frames carry.
func (m *Model) spin() string {
	return m.spinner.Style.Render(strings.TrimSpace(ansi.Strip(m.spinner.View())))
}
