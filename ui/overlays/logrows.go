package overlays

import (
	"cmp"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/style"
)

// renderLogEntries draws the log pane's whole content with no call picked
// out: title, then one or two lines a call.
func renderLogEntries(logPath string, outcomes []*client.Outcome, width int, st *style.Styles) string {
	header, blocks := logParts(logPath, outcomes, false, width, st)
	out := header
	for _, b := range blocks {
		out = append(out, b...)
	}
	if len(blocks) == 0 {
		out = append(out, termtext.Truncate(st.Muted.Render("no calls yet"), max(width, 1)))
	}
	return strings.Join(out, "\n")
}

// Widths of the log's fixed columns.
const (
	logGutterW   = 2 // the cursor, "› "
	logTimeW     = 8 // 15:04:05
	logStatusW   = 10
	logGap       = 2
	logToolMax   = 24
	logToolMin   = 8
	logServerMax = 16
	logWideMin   = 90 // from this width the open-world mark is spelled out
)

// logParts draws the header, and for each call its block: a row, and a
// line under it with the reason when the call did not end well. Each row
// names its server when the view has several (servers), or the calls do.
func logParts(logPath string, outcomes []*client.Outcome, servers bool, width int, st *style.Styles) (header []string, blocks [][]string) {
	width = max(1, width)
	title := st.Title.Render("Session log")
	path := st.Muted.Render("not logging (--no-log)")
	if logPath != "" {
		path = st.Muted.Render(termtext.Line(logPath))
	}
	if line := title + "  " + path; ansi.StringWidth(line) <= width {
		header = []string{line}
	} else {
		header = []string{termtext.Truncate(title, width), termtext.TruncateLeft(path, width)}
	}

	type row struct {
		o                       *client.Outcome
		server, tool, title     string
		att, dur                string
		detail                  string
		detailStyle, attemptSty lipgloss.Style
	}
	rs := make([]row, 0, len(outcomes))
	serverW, toolW, titleW, attW, durW := 0, 0, 0, 0, 0
	for _, o := range outcomes {
		if o == nil {
			continue
		}
		r := row{o: o, server: termtext.Line(o.Server), tool: termtext.Line(o.Tool), title: termtext.Line(o.Title), attemptSty: st.Row}
		if len(rs) > 0 && r.server != rs[0].server {
			servers = true
		}
		if r.title == r.tool {
			r.title = ""
		}
		switch n := len(o.Attempts); {
		case o.Status == client.StatusRefused:
			r.att = "not sent"
		case n > 1:
			r.att, r.attemptSty = units.Plural(n, "attempt"), st.Warning
		default:
			r.att = units.Plural(n, "attempt")
		}
		if o.Status != client.StatusRefused {
			r.dur = units.MS(o.DurationMS)
		}
		r.detail, r.detailStyle = logDetail(o, st)
		serverW = max(serverW, ansi.StringWidth(r.server))
		toolW = max(toolW, ansi.StringWidth(r.tool))
		titleW = max(titleW, ansi.StringWidth(r.title))
		attW = max(attW, ansi.StringWidth(r.att))
		durW = max(durW, len(r.dur))
		rs = append(rs, r)
	}

	wide := width >= logWideMin
	markW := 1
	if wide {
		markW = ansi.StringWidth("◆ open-world")
	}
	toolW = min(toolW, logToolMax)
	if !servers {
		serverW = 0
	}
	serverW = min(serverW, logServerMax)
	fixed := logGutterW + logTimeW + logStatusW + markW + attW + durW + 5*logGap
	if serverW > 0 {
		fixed += serverW + logGap
	}
	if over := fixed + toolW - width; over > 0 {
		toolW = max(logToolMin, toolW-over)
	}
	if room := width - fixed - toolW - logGap; room < 4 {
		titleW = 0
	} else {
		titleW = min(titleW, room)
	}

	gap := strings.Repeat(" ", logGap)
	gutter := strings.Repeat(" ", logGutterW)
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
		cells := []termtext.Cell{
			{Text: o.Time.Format("15:04:05"), Style: style.Draw(st.Muted)},
			{Text: StatusWord(o.Status), Width: logStatusW, Style: style.Draw(StatusStyle(o.Status, st))},
			{Text: mark},
		}
		if serverW > 0 {
			cells = append(cells, termtext.Cell{Text: r.server, Width: serverW, Style: style.Draw(st.Name)})
		}
		cells = append(cells, termtext.Cell{Text: r.tool, Width: toolW, Style: style.Draw(st.Row)})
		if titleW > 0 {
			cells = append(cells, termtext.Cell{Text: r.title, Width: titleW, Style: style.Draw(st.Muted)})
		}
		if r.dur == "" {
			cells = append(cells, termtext.Cell{Text: r.att, Style: style.Draw(r.attemptSty)})
		} else {
			cells = append(cells,
				termtext.Cell{Text: r.att, Width: attW, Style: style.Draw(r.attemptSty)},
				termtext.Cell{Text: r.dur, Width: durW, Right: true, Style: style.Draw(st.Muted)})
		}
		block := []string{termtext.Truncate(gutter+termtext.Row(gap, cells...), width)}
		if r.detail != "" {
			indent := logGutterW + logTimeW + logGap
			text := termtext.Truncate("↳ "+termtext.Line(r.detail), max(1, width-indent))
			block = append(block, termtext.Truncate(strings.Repeat(" ", indent)+r.detailStyle.Render(text), width))
		}
		blocks = append(blocks, block)
	}
	return header, blocks
}

// logDetail is the line under a call that did not end well: why.
func logDetail(o *client.Outcome, st *style.Styles) (string, lipgloss.Style) {
	switch {
	case o.Status == client.StatusRefused && cmp.Or(o.Reason, o.Error) != "":
		return cmp.Or(o.Reason, o.Error), st.Warning
	case o.Status == client.StatusCancelled && o.Error != "":
		return o.Error, st.Warning
	case o.Status == client.StatusFailed && o.Error != "":
		return o.Error, st.Error
	case o.LogError != "":
		return "not recorded in the session log: " + o.LogError, st.Warning
	}
	return "", st.Row
}
