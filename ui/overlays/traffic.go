package overlays

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/mcpsh/mcpsh/ui/layout"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// Traffic is the wire (key T): one line per JSON-RPC message of the
// server on screen, oldest first, following the newest unless the user moved
// up; / filters by method as you type; enter opens one message pretty-printed
// and scrollable; c copies it to the clipboard. It keeps what trafficfeed.go
// says.
type Traffic struct {
	st   *style.Styles
	keys *keymap.KeyMap
	feed *trafficFeed

	// entries are the kept messages, oldest first; entries[i] is message
	// number base+i of the session. bytes is the size of their text.
	entries []TrafficEntry
	base    int
	bytes   int
	dropped int64 // messages the view fell too far behind to take

	filterIn  textinput.Model
	filtering bool
	filter    string // lower-cased
	// shown are the numbers of the messages that pass the filter; cursor
	// indexes it, and rows is the window over them. Rows are drawn on View,
	// only those on screen: messages arrive faster than frames.
	shown  []int
	cursor int
	rows   scroll.Pane
	follow bool

	open *trafficOpen

	width, height int
}

// trafficOpen is one message opened: its text pretty-printed, and drawn for
// the pane's width.
type trafficOpen struct {
	entry TrafficEntry
	text  []byte      // what c copies
	body  scroll.Pane // text, made safe, wrapped and styled
	width int
}

// NewTraffic is the pane of one server's traffic. Its feed stops waiting
// once stop or ctxDone is closed: the view has ended.
func NewTraffic(st *style.Styles, keys *keymap.KeyMap, stop, ctxDone <-chan struct{}) *Traffic {
	p := &Traffic{st: st, keys: keys, feed: newTrafficFeed(stop, ctxDone), follow: true, filterIn: textinput.New()}
	p.filterIn.SetStyles(st.TextInput())
	p.filterIn.Prompt = "/ "
	p.filterIn.Placeholder = "filter by method"
	return p
}

// Tracer is client.Options.Trace for the server's sessions: next, when set
// (--trace's file), hears every message first, whole.
func (p *Traffic) Tracer(next func(client.TraceEntry)) func(client.TraceEntry) {
	return p.feed.tracer(next)
}

// Wait delivers the messages that arrived since the last call, at least one,
// as a TrafficMsg; Update hands them to Add and waits again.
func (p *Traffic) Wait() tea.Cmd { return waitTraffic(p.feed) }

// Restyle follows a new theme: the filter's input, and the opened message,
// drawn ahead. The rows are drawn on View.
func (p *Traffic) Restyle() {
	p.filterIn.SetStyles(p.st.TextInput())
	if p.open != nil {
		p.open.draw(p.st)
	}
}

// Len is how many messages the pane keeps.
func (p *Traffic) Len() int { return len(p.entries) }

// Entries are the messages the pane keeps, oldest first.
func (p *Traffic) Entries() []TrafficEntry { return p.entries }

// Matching is how many of them pass the filter.
func (p *Traffic) Matching() int { return len(p.shown) }

// Filter is what the methods shown contain, lower-cased; "" shows them all.
func (p *Traffic) Filter() string { return p.filter }

// Filtering reports whether the filter is being typed.
func (p *Traffic) Filtering() bool { return p.filtering }

// Opened reports whether a message is open.
func (p *Traffic) Opened() bool { return p.open != nil }

// Add keeps newly arrived messages, dropping the oldest past the limits.
func (p *Traffic) Add(entries []TrafficEntry, dropped int64) {
	p.dropped = dropped
	for _, e := range entries {
		p.entries = append(p.entries, e)
		p.bytes += int(entryBytes(e))
		if p.matches(e) {
			p.shown = append(p.shown, p.base+len(p.entries)-1)
		}
	}
	n := 0
	for len(p.entries)-n > trafficKeep || (p.bytes > trafficBytes && len(p.entries)-n > 1) {
		p.bytes -= int(entryBytes(p.entries[n]))
		p.entries[n] = TrafficEntry{}
		n++
	}
	if n > 0 {
		p.entries = p.entries[n:]
		p.base += n
		gone := 0
		for gone < len(p.shown) && p.shown[gone] < p.base {
			gone++
		}
		p.shown = p.shown[gone:]
		p.cursor = max(p.cursor-gone, 0)
		p.rows.Cut(0, gone)
	}
	p.clamp()
}

func (p *Traffic) matches(e TrafficEntry) bool {
	return p.filter == "" || strings.Contains(strings.ToLower(e.Method), p.filter)
}

// setFilter shows only messages whose method contains f.
func (p *Traffic) setFilter(f string) {
	f = strings.ToLower(strings.TrimSpace(f))
	if f == p.filter {
		return
	}
	p.filter = f
	p.shown = p.shown[:0]
	for i, e := range p.entries {
		if p.matches(e) {
			p.shown = append(p.shown, p.base+i)
		}
	}
	p.follow = true
	p.clamp()
}

// selected is the message under the cursor.
func (p *Traffic) selected() (TrafficEntry, bool) {
	if p.cursor < 0 || p.cursor >= len(p.shown) {
		return TrafficEntry{}, false
	}
	return p.entries[p.shown[p.cursor]-p.base], true
}

// SetSize sets the pane's size in cells.
func (p *Traffic) SetSize(width, height int) {
	p.width, p.height = width, height
	p.filterIn.SetWidth(max(width-4, 10))
	if o := p.open; o != nil {
		o.setSize(width, height, p.st)
	}
	p.clamp()
}

// rowsHeight is how many message rows fit under the pane's header.
func (p *Traffic) rowsHeight() int {
	h := p.height - 1
	if p.filtering || p.filter != "" {
		h--
	}
	return max(h, 1)
}

// clamp sizes the window for the header, which the filter line makes a
// line longer, and keeps the cursor in it (on the newest when following).
func (p *Traffic) clamp() {
	if p.follow {
		p.cursor = len(p.shown) - 1
	}
	p.cursor = min(max(p.cursor, 0), max(len(p.shown)-1, 0))
	p.rows.SetSize(p.width, p.rowsHeight())
	p.rows.SetRows(len(p.shown))
	p.rows.Show(p.cursor, p.cursor)
}

// move moves the cursor by n rows; at the last row the pane follows again.
func (p *Traffic) move(n int) {
	p.cursor += n
	p.follow = p.cursor >= len(p.shown)-1
	p.clamp()
}

// openSelected opens the message under the cursor.
func (p *Traffic) openSelected() bool {
	e, ok := p.selected()
	if !ok {
		return false
	}
	o := &trafficOpen{entry: e, text: prettyMessage(e)}
	o.setSize(p.width, p.height, p.st)
	p.open = o
	return true
}

// prettyMessage is a message's text indented, made safe for a clipboard and
// a terminal (termtext.EscapeJSON: C1 and bidi controls escaped); a message
// cut short, or not JSON, is shown as it came, with what was cut said.
func prettyMessage(e TrafficEntry) []byte {
	var b bytes.Buffer
	if e.cut > 0 || json.Indent(&b, e.Message, "", "  ") != nil {
		b.Reset()
		b.Write(e.Message)
		if e.cut > 0 {
			fmt.Fprintf(&b, "\n… %s more not kept (the pane keeps %s of a message)", client.HumanBytes(e.cut), client.HumanBytes(trafficTextMax))
		}
	}
	return termtext.EscapeJSON(b.Bytes())
}

// setSize draws the message for the width, when it changed, and sizes its
// body for what the heading leaves: a page moves a line less than that, so
// the last line of one page is the first of the next.
func (o *trafficOpen) setSize(width, height int, st *style.Styles) {
	if o.width != width || o.body.Lines() == nil {
		o.width = width
		o.draw(st)
	}
	o.body.SetSize(width, max(height-1, 0))
	o.body.SetPage(max(height-2, 1))
}

// draw wraps the message for the width, in st's colours.
func (o *trafficOpen) draw(st *style.Styles) {
	var lines []string
	for _, l := range strings.Split(termtext.Sanitize(string(o.text)), "\n") {
		for _, sub := range layout.Wrap(layout.ExpandTabs(l), max(o.width, 1)) {
			lines = append(lines, st.Row.Render(sub))
		}
	}
	o.body.SetLines(lines)
}

// copyCmd copies the opened message, or the one under the cursor, to the
// clipboard: OSC 52, through Bubble Tea's tea.SetClipboard.
func (p *Traffic) copyCmd() (tea.Cmd, string) {
	text := []byte(nil)
	if p.open != nil {
		text = p.open.text
	} else if e, ok := p.selected(); ok {
		text = prettyMessage(e)
	}
	if text == nil {
		return nil, "nothing to copy: no message is selected"
	}
	return tea.SetClipboard(string(text)), fmt.Sprintf("copied %s to the clipboard (OSC 52: the terminal must allow it)", client.HumanBytes(len(text)))
}

// Widths of the rows' columns.
const (
	trafficTimeW = len("15:04:05.000")
	trafficIDW   = 7
	trafficSizeW = len("999.9 KB")
	trafficLatW  = len("2 min 05 s")
	trafficWide  = 90 // from this width kinds are spelled out
)

func (p *Traffic) kindWidth() int {
	if p.width >= trafficWide {
		return len("notification")
	}
	return len("notif")
}

func trafficKind(kind string, wide bool) string {
	if wide {
		return kind
	}
	switch kind {
	case "request":
		return "req"
	case "notification":
		return "notif"
	case "response":
		return "resp"
	case "error":
		return "error"
	case "unreadable":
		return "bad"
	}
	return termtext.Truncate(termtext.Line(kind), len("notif"))
}

// row draws message e in one line of the pane's width.
func (p *Traffic) row(e TrafficEntry, selected bool) string {
	st := p.st
	kindW := p.kindWidth()
	methodW := p.width - (trafficTimeW + 1 + 1 + 1 + kindW + 1 + 1 + trafficIDW + 1 + trafficSizeW + 1 + trafficLatW)
	dir, dirStyle := "←", st.Row
	if e.Dir == "out" {
		dir, dirStyle = "→", st.Muted
	}
	kindStyle := st.Muted
	if e.Kind == "error" || e.Kind == "unreadable" {
		kindStyle = st.Error
	}
	id := ""
	if e.ID != "" {
		id = "#" + termtext.Truncate(termtext.Line(strings.Trim(e.ID, `"`)), trafficIDW-1)
	}
	lat := ""
	if e.LatencyMS > 0 {
		lat = units.MS(e.LatencyMS) // as every duration on screen reads
	}
	method := termtext.Line(e.Method)
	if method == "" && e.Kind == "unreadable" {
		method = "not JSON-RPC"
	}
	cells := []termtext.Cell{
		{Text: e.Time.Format("15:04:05.000"), Style: style.Draw(st.Muted)},
		{Text: dir, Style: style.Draw(dirStyle)},
		{Text: trafficKind(e.Kind, kindW > 5), Width: kindW, Style: style.Draw(kindStyle)},
	}
	if methodW >= 4 {
		cells = append(cells, termtext.Cell{Text: method, Width: methodW, Style: style.Draw(st.Row)})
	}
	size := client.HumanBytes(e.Size)
	cells = append(cells,
		termtext.Cell{Text: id, Width: trafficIDW, Style: style.Draw(st.Muted)},
		// sizes and latencies are never cut: a longer one pushes the row on
		termtext.Cell{Text: size, Width: max(trafficSizeW, len(size)), Right: true, Style: style.Draw(st.Muted)},
		termtext.Cell{Text: lat, Width: max(trafficLatW, len(lat)), Right: true, Style: style.Draw(st.Muted)})
	line := termtext.Truncate(termtext.Row(" ", cells...), p.width)
	if selected {
		line = st.RowSelected.Render(termtext.Pad(ansi.Strip(line), p.width))
	}
	return line
}

// title is the pane's first line: whose traffic, and how much of it is kept.
func (p *Traffic) title(server string) string {
	st := p.st
	t := st.Title.Render("Traffic") + "  " + termtext.Truncate(termtext.Line(server), 32)
	info := units.Plural(len(p.entries), "message")
	if p.base > 0 {
		info += fmt.Sprintf(" (the last %d of %d)", len(p.entries), p.base+len(p.entries))
	}
	if p.dropped > 0 {
		info += fmt.Sprintf(" · %d not shown: the view fell behind", p.dropped)
	}
	return termtext.Truncate(t+"  "+st.Muted.Render(info), max(p.width, 1))
}

// View is the pane: the list, or the opened message.
func (p *Traffic) View(server string) string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	if p.open != nil {
		return p.viewOpen()
	}
	st := p.st
	out := []string{p.title(server)}
	switch {
	case p.filtering:
		out = append(out, p.filterIn.View())
	case p.filter != "":
		out = append(out, st.Filter.Render("/ "+termtext.Line(p.filterIn.Value()))+st.Muted.Render(fmt.Sprintf("  %d of %d", len(p.shown), len(p.entries))))
	}
	if len(p.shown) == 0 {
		msg := "nothing on the wire yet"
		if p.filter != "" {
			msg = "no message's method contains " + termtext.Line(p.filter)
		}
		out = append(out, st.Muted.Render(msg))
	}
	from, to := p.rows.Window()
	for i := from; i < to; i++ {
		out = append(out, p.row(p.entries[p.shown[i]-p.base], i == p.cursor))
	}
	return strings.Join(layout.FitLines(strings.Join(out, "\n"), p.width, p.height), "\n")
}

func (p *Traffic) viewOpen() string {
	o, st := p.open, p.st
	e := o.entry
	dir := "←"
	if e.Dir == "out" {
		dir = "→"
	}
	head := st.Title.Render(dir+" "+trafficKind(e.Kind, true)) + " " + st.Row.Render(termtext.Line(e.Method))
	if e.ID != "" {
		head += " " + st.Muted.Render("#"+termtext.Line(strings.Trim(e.ID, `"`)))
	}
	info := e.Time.Format("15:04:05.000") + " · " + client.HumanBytes(e.Size)
	if e.LatencyMS > 0 {
		info += " · answered in " + units.MS(e.LatencyMS)
	}
	out := append([]string{termtext.Truncate(head+"  "+st.Muted.Render(info), p.width)}, o.body.Visible()...)
	return strings.Join(layout.FitLines(strings.Join(out, "\n"), p.width, p.height), "\n")
}
