package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// logPane lists every call of this session, oldest first (key L): the same
// calls the session log file records.
type logPane struct {
	st       *Styles
	keys     *KeyMap
	vp       viewport.Model
	logPath  string
	outcomes []*client.Outcome
	header   []string
	width    int
	height   int
	shown    bool // content was set once: later updates keep the scroll
}

func newLogPane(st *Styles, keys *KeyMap) *logPane {
	return &logPane{st: st, keys: keys, vp: viewport.New()}
}

// SetSize sets the pane's size in cells.
func (p *logPane) SetSize(width, height int) {
	p.height = height
	if width != p.width {
		p.width = width
		p.vp.SetWidth(max(0, width))
		p.render()
		return
	}
	bottom := p.vp.AtBottom()
	p.vp.SetHeight(max(0, height-len(p.header)))
	if bottom {
		p.vp.GotoBottom()
	}
}

// SetEntries replaces the calls shown; logPath "" means logging is off. The
// view stays at the bottom, where the newest call is, unless the user has
// scrolled up.
func (p *logPane) SetEntries(logPath string, outcomes []*client.Outcome) {
	p.logPath, p.outcomes = logPath, outcomes
	p.render()
}

func (p *logPane) render() {
	if p.width <= 0 {
		return
	}
	follow := !p.shown || p.vp.AtBottom()
	var rows []string
	p.header, rows = logParts(p.logPath, p.outcomes, p.width, p.st)
	p.vp.SetHeight(max(0, p.height-len(p.header)))
	p.vp.SetContentLines(rows)
	p.shown = true
	if follow {
		p.vp.GotoBottom()
	}
}

// Update scrolls.
func (p *logPane) Update(msg tea.Msg) tea.Cmd {
	paneScroll(&p.vp, p.keys, msg)
	return nil
}

// View is the title and as many calls as fit.
func (p *logPane) View() string {
	if p.height <= 0 || p.width <= 0 {
		return ""
	}
	head := p.header
	if len(head) > p.height {
		head = head[:p.height]
	}
	if p.vp.Height() == 0 {
		return strings.Join(head, "\n")
	}
	return strings.Join(head, "\n") + "\n" + p.vp.View()
}

// renderLogEntries draws the log pane's whole content: title, then one or two
// lines a call.
func renderLogEntries(logPath string, outcomes []*client.Outcome, width int, st *Styles) string {
	header, rows := logParts(logPath, outcomes, width, st)
	return strings.Join(append(header, rows...), "\n")
}

// Widths of the log's fixed columns.
const (
	logTimeW   = 8  // 15:04:05
	logStatusW = 10 // "tool error"
	logGap     = 2
	logToolMax = 24
	logToolMin = 8
	logWideMin = 90 // from this width the open-world mark is spelled out
)

func logParts(logPath string, outcomes []*client.Outcome, width int, st *Styles) (header, rows []string) {
	width = max(1, width)
	title := st.Title.Render("Session log")
	path := st.Muted.Render("not logging (--no-log)")
	if logPath != "" {
		path = st.Muted.Render(termtext.Line(logPath))
	}
	if line := title + "  " + path; ansi.StringWidth(line) <= width {
		header = []string{line}
	} else {
		header = []string{paneFit(title, width), paneFitLeft(path, width)}
	}

	type row struct {
		o                       *client.Outcome
		tool, title, att, dur   string
		detail                  string
		detailStyle, attemptSty lipgloss.Style
	}
	var rs []row
	toolW, titleW, attW, durW := 0, 0, 0, 0
	for _, o := range outcomes {
		if o == nil {
			continue
		}
		r := row{o: o, tool: termtext.Line(o.Tool), title: termtext.Line(o.Title), attemptSty: st.Row}
		if r.title == r.tool {
			r.title = ""
		}
		switch n := len(o.Attempts); {
		case o.Status == client.StatusRefused:
			r.att = "not sent"
		case n > 1:
			r.att, r.attemptSty = resultAttempts(n), st.Warning
		default:
			r.att = resultAttempts(n)
		}
		if o.Status != client.StatusRefused {
			r.dur = fmt.Sprintf("%.0fms", o.DurationMS)
		}
		switch o.Status {
		case client.StatusRefused:
			r.detail, r.detailStyle = resultOr(o.Reason, o.Error), st.Warning
		case client.StatusCancelled:
			r.detail, r.detailStyle = o.Error, st.Warning
		case client.StatusFailed:
			r.detail, r.detailStyle = o.Error, st.Error
		}
		if r.detail == "" && o.LogError != "" {
			r.detail, r.detailStyle = "not recorded in the session log: "+o.LogError, st.Warning
		}
		toolW = max(toolW, ansi.StringWidth(r.tool))
		titleW = max(titleW, ansi.StringWidth(r.title))
		attW = max(attW, ansi.StringWidth(r.att))
		durW = max(durW, len(r.dur))
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return header, []string{paneFit(st.Muted.Render("no calls yet"), width)}
	}

	wide := width >= logWideMin
	markW := 1
	if wide {
		markW = ansi.StringWidth("◆ open-world")
	}
	toolW = min(toolW, logToolMax)
	fixed := logTimeW + logStatusW + markW + attW + durW + 5*logGap
	if over := fixed + toolW - width; over > 0 {
		toolW = max(logToolMin, toolW-over)
	}
	if room := width - fixed - toolW - logGap; room < 4 {
		titleW = 0
	} else {
		titleW = min(titleW, room)
	}

	gap := strings.Repeat(" ", logGap)
	for _, r := range rs {
		o := r.o
		mark := strings.Repeat(" ", markW)
		if o.OpenWorld {
			mark = "◆"
			if wide {
				mark = "◆ open-world"
			}
			mark = st.MarkOpenWorld.Render(mark)
		}
		var b strings.Builder
		b.WriteString(st.Muted.Render(o.Time.Format("15:04:05")))
		b.WriteString(gap)
		b.WriteString(resultStatusStyle(o.Status, st).Render(panePad(resultStatusWord(o.Status), logStatusW)))
		b.WriteString(gap)
		b.WriteString(mark)
		b.WriteString(gap)
		b.WriteString(st.Row.Render(panePad(termtext.Truncate(r.tool, toolW), toolW)))
		if titleW > 0 {
			b.WriteString(gap)
			b.WriteString(st.Muted.Render(panePad(termtext.Truncate(r.title, titleW), titleW)))
		}
		b.WriteString(gap)
		if r.dur == "" {
			b.WriteString(r.attemptSty.Render(r.att))
		} else {
			b.WriteString(r.attemptSty.Render(panePad(r.att, attW)))
			b.WriteString(gap)
			b.WriteString(st.Muted.Render(strings.Repeat(" ", durW-len(r.dur)) + r.dur))
		}
		rows = append(rows, paneFit(b.String(), width))
		if r.detail != "" {
			indent := logTimeW + logGap
			text := termtext.Truncate("↳ "+termtext.Line(r.detail), max(1, width-indent))
			rows = append(rows, paneFit(strings.Repeat(" ", indent)+r.detailStyle.Render(text), width))
		}
	}
	return header, rows
}

// Helpers shared by the result view and the panes.

// paneScroll applies the scrolling keys (line, page, top, bottom) and the
// mouse wheel to vp, and reports whether msg was one of them.
func paneScroll(vp *viewport.Model, keys *KeyMap, msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, keys.PageUp):
			vp.PageUp()
		case key.Matches(msg, keys.PageDown):
			vp.PageDown()
		case key.Matches(msg, keys.Top):
			vp.GotoTop()
		case key.Matches(msg, keys.Bottom):
			vp.GotoBottom()
		case key.Matches(msg, keys.ScrollUp):
			vp.ScrollUp(1)
		case key.Matches(msg, keys.ScrollDown):
			vp.ScrollDown(1)
		default:
			return false
		}
		return true
	case tea.MouseWheelMsg:
		*vp, _ = vp.Update(msg)
		return true
	}
	return false
}

// paneWrap wraps s (which may be styled, but holds no newline) to width cells,
// breaking long words, and guarantees no line is wider.
func paneWrap(s string, width int) []string {
	width = max(1, width)
	if ansi.StringWidth(s) <= width {
		return []string{s}
	}
	out := strings.Split(ansi.Wrap(s, width, ""), "\n")
	for i, l := range out {
		out[i] = paneFit(l, width)
	}
	return out
}

// paneFit cuts s to width cells, with "…" when cut.
func paneFit(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, max(0, width), "…")
}

// paneFitLeft cuts s to width cells from the left, keeping its end (the file
// name of a path).
func paneFitLeft(s string, width int) string {
	w := ansi.StringWidth(s)
	if w <= width {
		return s
	}
	return ansi.TruncateLeft(s, w-width+1, "…")
}

// panePad pads plain text with spaces to width cells.
func panePad(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// paneExpandTabs turns tabs into spaces up to the next 8-cell tab stop, so
// widths measured are widths drawn.
func paneExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for i, seg := range strings.Split(s, "\t") {
		if i > 0 {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		}
		b.WriteString(seg)
		col += ansi.StringWidth(seg)
	}
	return b.String()
}

// paneRuneStart is the largest n' ≤ n that does not split a UTF-8 sequence.
func paneRuneStart(s string, n int) int {
	n = min(max(0, n), len(s))
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
