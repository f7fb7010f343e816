package watch

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/footer"
)

// View draws the model as the last Update laid it out; it changes nothing.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

// render is the whole screen: header, body, the notice, footer.
func (m *Model) render() string {
	w := max(m.width, 1)
	out := []string{m.header(w)}
	body := m.bodyHeight()
	var lines []string
	switch {
	case m.dialog != nil:
		lines = strings.Split(lipgloss.Place(w, body, lipgloss.Center, lipgloss.Center, m.renderDialog(body)), "\n")
	case m.help:
		lines = m.helpPane.Fitted()
	case m.open != nil:
		lines = m.detail.Fitted()
	default:
		lines = append(m.proxiesBlock(w), m.callsBlock(w)...)
	}
	for len(lines) < body {
		lines = append(lines, "")
	}
	out = append(out, lines[:body]...)
	if m.notice.text != "" {
		st := m.st.OK
		if m.notice.warn {
			st = m.st.Warning
		}
		out = append(out, st.Render(termtext.Truncate(m.notice.text, w)))
	}
	out = append(out, footer.Render(m.st, m.keys, m.bindings(), w))
	for i, l := range out {
		out[i] = termtext.Truncate(l, w)
	}
	return strings.Join(out, "\n")
}

// bodyHeight is the lines between the header and the footer (and the
// notice, when there is one).
func (m *Model) bodyHeight() int {
	h := m.height - 2
	if m.notice.text != "" {
		h--
	}
	return max(h, 1)
}

// proxyRows is how many rows the proxies' list has on screen: "all" and
// each proxy, up to a quarter of the body.
func (m *Model) proxyRows() int {
	return max(min(len(m.state.proxies)+1, m.bodyHeight()/4), 1)
}

// callRows is how many calls fit under the proxies.
func (m *Model) callRows() int {
	return max(m.bodyHeight()-m.proxyRows()-1-2, 1)
}

// header says what is watched, and how many questions wait for a person.
func (m *Model) header(w int) string {
	left := m.st.Header.Render("mcpsh watch") + m.st.HeaderDim.Render(" · "+proxiesWord(len(m.state.proxies)))
	if n := len(m.state.questions); n > 0 {
		words := fmt.Sprintf("%d approvals wait", n)
		if n == 1 {
			words = "1 approval waits"
		}
		left += m.st.HeaderDim.Render(" · ") + m.st.Warning.Bold(true).Render(words)
	}
	right := ""
	if m.ended {
		right = m.st.Error.Render("no longer watching")
	} else if len(m.state.proxies) == 0 {
		right = m.st.Muted.Render("waiting for a proxy")
	}
	line, fits := termtext.Spread(left, right, w, 2)
	if !fits {
		line = left
	}
	return termtext.Truncate(line, w)
}

// Widths of the proxies' columns.
const (
	gutterW = 2 // the cursor, "› "
	sinceW  = 8 // 15:04:05
	countsW = 11
	waitW   = 4
	healthW = 8
	viaMax  = 22
	whoMin  = 32 // below this, the protocol is left out to make room
)

// proxiesBlock is the proxies' title and rows: "all", then each proxy.
func (m *Model) proxiesBlock(w int) []string {
	st := m.st
	ps := m.state.proxies
	gap := " "
	if w >= wideMin {
		gap = "  "
	}
	// The host and server say most: on a narrow screen the protocol
	// version gives them its room.
	var via []string
	var viaW, whoW int
	for _, protocol := range []bool{true, false} {
		via, viaW = make([]string, len(ps)), 0
		for i, p := range ps {
			via[i] = viaOf(p, protocol)
			viaW = max(viaW, ansi.StringWidth(via[i]))
		}
		viaW = min(viaW, viaMax)
		whoW = max(w-gutterW-viaW-sinceW-countsW-waitW-healthW-5*len(gap), 8)
		need := 0
		for _, p := range ps {
			need = max(need, ansi.StringWidth(whoOf(p)))
		}
		if whoW >= min(need, whoMin) {
			break
		}
	}
	row := func(cursor bool, who, via, since, counts, wait string, health string, hs lipgloss.Style) string {
		g := "  "
		if cursor {
			g = "› "
		}
		return g + termtext.Row(gap,
			termtext.Cell{Text: who, Width: whoW, Style: drawIf(cursor, st.RowSelected)},
			termtext.Cell{Text: via, Width: viaW, Style: drawStyle(st.Muted)},
			termtext.Cell{Text: since, Width: sinceW, Style: drawStyle(st.Muted)},
			termtext.Cell{Text: counts, Width: countsW},
			termtext.Cell{Text: wait, Width: waitW, Right: true, Style: drawStyle(st.Warning)},
			termtext.Cell{Text: health, Width: healthW, Style: drawStyle(hs)})
	}
	title := st.Title.Render(termtext.Pad("Proxies", whoW+gutterW)) + gap +
		st.Label.Render(termtext.Row(gap, termtext.Cell{Text: "via", Width: viaW}, termtext.Cell{Text: "since", Width: sinceW},
			termtext.Cell{Text: "calls r/w/d", Width: countsW}, termtext.Cell{Text: "wait", Width: waitW, Right: true}, termtext.Cell{Text: "health", Width: healthW}))
	out := []string{title}
	rows := m.proxyRows()
	// The rows on screen keep the selection in view.
	sel := 0
	for i, p := range ps {
		if p == m.sel {
			sel = i + 1
		}
	}
	from := max(0, min(sel-rows+1, len(ps)+1-rows))
	total := map[policy.Class]int{}
	waits := len(m.state.questions)
	for _, p := range ps {
		for c, n := range p.counts {
			total[c] += n
		}
	}
	for i := from; i < len(ps)+1 && i < from+rows; i++ {
		if i == 0 {
			out = append(out, row(m.sel == nil, "all proxies", "", "", m.counts(total), waitText(waits), "", st.Muted))
			continue
		}
		p := ps[i-1]
		h, hs := m.health(p)
		out = append(out, row(m.sel == p, whoOf(p), via[i-1], p.info.Started.In(m.opts.Location).Format("15:04:05"),
			m.counts(p.counts), waitText(m.state.waitingFor(p)), h, hs))
	}
	return out
}

func proxiesWord(n int) string {
	if n == 1 {
		return "1 proxy"
	}
	return fmt.Sprintf("%d proxies", n)
}

func waitText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// counts are calls by class, "3r 1w 1d", each in its class's colour.
func (m *Model) counts(c map[policy.Class]int) string {
	var parts []string
	for _, class := range policy.Classes {
		parts = append(parts, m.st.Section[class].Render(fmt.Sprintf("%d%c", c[class], class[0])))
	}
	return strings.Join(parts, " ")
}

// whoOf is a proxy's host and server: "claude-code 2.1 → notes".
func whoOf(p *proxy) string {
	host := "(no host yet)"
	if h := p.info.Host; h != nil {
		host = strings.TrimSpace(lineOf(h.Name) + " " + lineOf(h.Version))
	}
	return host + " → " + lineOf(p.info.Server.Name)
}

// viaOf is how a proxy reaches its server, and the protocol it speaks
// there: "stdio 2025-11-25".
func viaOf(p *proxy, protocol bool) string {
	s := lineOf(p.info.Server.Transport)
	if v := p.info.Server.Protocol; v != "" && protocol {
		s += " " + lineOf(v)
	}
	return s
}

// health says whether a proxy is well: its server's last call did not
// fail, and this console missed none of its events.
func (m *Model) health(p *proxy) (string, lipgloss.Style) {
	switch {
	case p.failing:
		return "failing", m.st.Error
	case p.dropped > 0:
		return "behind", m.st.Warning
	case p.info.Host == nil:
		return "starting", m.st.Muted
	}
	return "ok", m.st.OK
}

func drawStyle(s lipgloss.Style) func(string) string {
	return func(t string) string { return s.Render(t) }
}

func drawIf(on bool, s lipgloss.Style) func(string) string {
	if !on {
		return nil
	}
	return drawStyle(s)
}
