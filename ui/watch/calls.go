package watch

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/overlays"
)

// Widths of the calls' columns.
const (
	timeW     = 8 // 15:04:05
	classW    = 11
	marksW    = 4 // as the tool list's: idempotent, open-world, implied or conflict, allowed or denied
	byW       = 7
	statusW   = 10
	tookW     = 8
	triesW    = 5
	serverMax = 16
	minTitle  = 10  // a title cut shorter than this is left out: the name stays
	wideMin   = 100 // from this width, with every proxy's calls shown, each row names its server
)

// marks are a call's tool's marks exactly as the tool list draws them
// (ui/listmarks.go), from policy's facet words: ↻ idempotent, ◆
// open-world, ~ hints implied or ! conflicting; the fourth, ✓, when the
// tool ran as allowed for the session, ⊘ when a rule refused it.
func (m *Model) marks(c *call, selected bool) string {
	has := func(w string) bool { return slices.Contains(c.facets, w) }
	st := m.st
	type mark struct {
		on   bool
		text string
		s    lipgloss.Style
	}
	third := mark{has("implied"), overlays.MarkImplied, st.MarkImplied}
	if has("conflict") {
		third = mark{true, overlays.MarkConflict, st.Error}
	}
	last := mark{c.approvedBy == policy.BySession, overlays.MarkAllowed, st.OK}
	if c.decided && c.final == policy.Refuse && c.rule != "" {
		last = mark{true, overlays.MarkDenied, st.Error}
	}
	var b strings.Builder
	for _, k := range []mark{{has("idempotent"), overlays.MarkIdempotent, st.Mark}, {has("open-world") || c.openWorld, overlays.MarkOpenWorld, st.MarkOpenWorld}, third, last} {
		switch {
		case !k.on:
			b.WriteString(" ")
		case selected:
			b.WriteString(k.text)
		default:
			b.WriteString(k.s.Render(k.text))
		}
	}
	return b.String()
}

// byWord is who approved a call, in a word: policy (no confirmation was
// needed), rule, session, console, host, user, caller; "" when no one
// had to, or it was refused.
func byWord(c *call) string {
	return lineOf(string(c.approvedBy))
}

// callsBlock is the calls' title (whose, and the filter) and rows.
func (m *Model) callsBlock(w int) []string {
	st := m.st
	whose := "every proxy"
	if m.sel != nil {
		whose = whoOf(m.sel)
	}
	title := st.Title.Render("Calls") + st.Muted.Render(" · "+whose)
	if f := m.filterLine(); f != "" {
		title += st.Muted.Render(" · ") + f
	}
	out := []string{termtext.Truncate(title, w)}

	server := m.sel == nil && w >= wideMin
	gap := " "
	if w >= wideMin {
		gap = "  "
	}
	serverW := 0
	if server {
		for _, c := range m.shown {
			serverW = max(serverW, ansi.StringWidth(lineOf(c.proxy.info.Server.Name)))
		}
		serverW = max(min(serverW, serverMax), len("server"))
	}
	fixed := gutterW + timeW + classW + marksW + byW + statusW + tookW + triesW + 7*len(gap)
	if serverW > 0 {
		fixed += serverW + len(gap)
	}
	toolW := max(w-fixed, 8)
	cells := func(time, class, marks, srv, tool, by, status, took, tries termtext.Cell) []termtext.Cell {
		cs := []termtext.Cell{time, class, marks}
		if serverW > 0 {
			cs = append(cs, srv)
		}
		return append(cs, tool, by, status, took, tries)
	}
	label := func(s string, wd int) termtext.Cell { return termtext.Cell{Text: s, Width: wd} }
	out = append(out, st.Label.Render("  "+termtext.Row(gap, cells(label("time", timeW), label("class", classW), label("", marksW),
		label("server", serverW), label("tool", toolW), label("by", byW), label("status", statusW),
		termtext.Cell{Text: "took", Width: tookW, Right: true}, termtext.Cell{Text: "tries", Width: triesW, Right: true})...)))

	rows := m.callRows()
	if len(m.shown) == 0 {
		words := "no calls yet"
		if m.filter.active() {
			words = "no call matches the filter"
		}
		return append(out, st.Muted.Render(termtext.Truncate("  "+words, w)))
	}
	for i := m.top; i < len(m.shown) && i < m.top+rows; i++ {
		c := m.shown[i]
		sel := i == m.cursor
		s := func(x lipgloss.Style) func(string) string {
			if sel {
				return nil
			}
			return drawStyle(x)
		}
		status := statusOf(c)
		statusStyle := overlays.StatusStyle(status, st)
		switch status {
		case statusWaiting:
			statusStyle = st.Warning.Bold(true)
		case statusRunning:
			statusStyle = st.Muted
		}
		took, tries := "", ""
		triesStyle := st.Muted
		if c.ended && c.attempts > 0 {
			took, tries = units.MS(c.durationMS), fmt.Sprint(c.attempts)
			if c.attempts > 1 {
				triesStyle = st.Warning
			}
		}
		class := string(c.class)
		if class == "" {
			class = "?"
		}
		row := termtext.Row(gap, cells(
			termtext.Cell{Text: c.time.In(m.opts.Location).Format("15:04:05"), Width: timeW, Style: s(st.Muted)},
			termtext.Cell{Text: class, Width: classW, Style: s(st.ClassStyle(c.class))},
			termtext.Cell{Text: m.marks(c, sel), Width: marksW},
			termtext.Cell{Text: lineOf(c.proxy.info.Server.Name), Width: serverW, Style: s(st.Name)},
			termtext.Cell{Text: m.toolText(c, toolW, sel), Width: toolW},
			termtext.Cell{Text: byWord(c), Width: byW, Style: s(st.Row)},
			termtext.Cell{Text: wordOf(status), Width: statusW, Style: s(statusStyle)},
			termtext.Cell{Text: took, Width: tookW, Right: true, Style: s(st.Muted)},
			termtext.Cell{Text: tries, Width: triesW, Right: true, Style: s(triesStyle)})...)
		if sel {
			out = append(out, st.RowSelected.Render(termtext.Pad("› "+row, w)))
		} else {
			out = append(out, "  "+row)
		}
	}
	return out
}

// toolText is a call's tool as the tool list names it: its title, then
// its name (muted), or the name alone; the name stays when both do not fit.
func (m *Model) toolText(c *call, w int, selected bool) string {
	name, title := lineOf(c.tool), lineOf(c.title)
	if title == "" || title == name {
		return termtext.Truncate(name, w)
	}
	nw, tw := ansi.StringWidth(name), ansi.StringWidth(title)
	if nw+2+tw > w && w-nw-2 < minTitle {
		return termtext.Truncate(name, w)
	}
	title = termtext.Truncate(title, w-nw-2)
	if selected {
		return title + "  " + name
	}
	return m.st.Row.Render(title) + "  " + m.st.Name.Render(name)
}

// wordOf is how a status reads.
func wordOf(s client.Status) string {
	if s == statusWaiting || s == statusRunning {
		return string(s)
	}
	return overlays.StatusWord(s)
}

// filterLine says what the calls are filtered by and how many pass; ""
// when they are not. While the text is typed it is the input.
func (m *Model) filterLine() string {
	if !m.typing && !m.filter.active() {
		return ""
	}
	st := m.st
	var parts []string
	if m.typing {
		parts = append(parts, m.in.View())
	} else if m.filter.text != "" {
		parts = append(parts, st.Filter.Render("/ "+m.filter.text))
	}
	if s := m.filter.status; s != "" {
		parts = append(parts, "status "+st.Warning.Render(wordOf(s)))
	}
	if m.filter.openWorld {
		parts = append(parts, st.MarkOpenWorld.Render(overlays.MarkOpenWorld+" open-world only"))
	}
	parts = append(parts, st.Muted.Render(fmt.Sprintf("%d of %d", len(m.shown), m.ofProxy())))
	return strings.Join(parts, st.Muted.Render(" · "))
}

// ofProxy counts the calls of the proxy shown (of all, when none is).
func (m *Model) ofProxy() int {
	if m.sel == nil {
		return len(m.state.calls)
	}
	n := 0
	for _, c := range m.state.calls {
		if c.proxy == m.sel {
			n++
		}
	}
	return n
}
