package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// logPane lists every call of this session, oldest first (key L): the same
// calls the session log file records. A cursor moves over them (↑/↓), the
// list filters by status (f), to open-world calls (o) and by tool or server
// (typed after /), and enter opens a call: its arguments as the log keeps
// them and a summary of its result.
//
// Rows are drawn when the calls, the filter or the width change, never on
// View: a long session has many calls, and the cursor only restyles its row.
type logPane struct {
	st       *Styles
	keys     *KeyMap
	logPath  string
	outcomes []*client.Outcome
	argsMode sessionlog.ArgsMode
	// servers: the view holds several, so each row names its server.
	servers bool
	width   int
	height  int

	header []string
	// shown are the indices into outcomes that pass the filter, oldest
	// first; blocks[i] are shown[i]'s lines, starts[i] the first of them.
	shown  []int
	blocks [][]string
	starts []int
	total  int // lines of all blocks
	cursor int // index into shown
	top    int // first line on screen

	filter logFilter
	typing bool // the text filter has the keys
	in     textinput.Model

	// open is the call opened with enter, drawn in openLines; openTop is
	// its first line on screen.
	open      *client.Outcome
	openLines []string
	openTop   int
}

func newLogPane(st *Styles, keys *KeyMap) *logPane {
	in := textinput.New()
	in.Prompt = "/ "
	in.Placeholder = "tool or server"
	in.SetStyles(inputStyles(st))
	return &logPane{st: st, keys: keys, in: in, argsMode: sessionlog.ArgsRedact}
}

// SetArgsMode says how the session log keeps arguments (--log-args), so an
// opened call shows them as they were logged. The log's default is redact.
func (p *logPane) SetArgsMode(m sessionlog.ArgsMode) {
	p.argsMode = m
	p.renderOpen()
}

// SetSize sets the pane's size in cells.
func (p *logPane) SetSize(width, height int) {
	p.height = height
	p.in.SetWidth(max(width/2, 8))
	if width != p.width {
		p.width = width
		p.render()
		p.renderOpen()
	}
	p.scrollToCursor()
}

// SetEntries replaces the calls shown; logPath "" means logging is off. The
// cursor stays on its call; when it was on the newest, it moves to the new
// newest, so the pane follows the session unless the user moved up.
func (p *logPane) SetEntries(logPath string, outcomes []*client.Outcome) {
	follow := len(p.shown) == 0 || p.cursor == len(p.shown)-1
	var keep *client.Outcome
	if !follow {
		keep = p.outcomes[p.shown[p.cursor]]
	}
	p.logPath, p.outcomes = logPath, outcomes
	p.render()
	p.cursor = len(p.shown) - 1
	for i, o := range p.shown {
		if p.outcomes[o] == keep {
			p.cursor = i
		}
	}
	p.cursor = max(p.cursor, 0)
	p.scrollToCursor()
}

// render draws the header and the rows of the calls that pass the filter.
func (p *logPane) render() {
	if p.width <= 0 {
		return
	}
	p.shown = p.shown[:0]
	for i, o := range p.outcomes {
		if o != nil && p.filter.match(o) {
			p.shown = append(p.shown, i)
		}
	}
	entries := make([]*client.Outcome, len(p.shown))
	for i, o := range p.shown {
		entries[i] = p.outcomes[o]
	}
	p.header, p.blocks = logParts(p.logPath, entries, p.servers, p.width, p.st)
	p.starts, p.total = make([]int, len(p.blocks)), 0
	for i, b := range p.blocks {
		p.starts[i] = p.total
		p.total += len(b)
	}
	p.cursor = min(max(p.cursor, 0), max(len(p.shown)-1, 0))
}

// WantsKey reports whether the pane takes msg before the keys that work on
// every overlay: all of them while a filter is typed, and esc while a call
// is open (it goes back to the list rather than closing the pane).
func (p *logPane) WantsKey(msg tea.KeyPressMsg) bool {
	return p.typing || (p.open != nil && key.Matches(msg, p.keys.Close))
}

// Typing reports whether the text filter has the keys.
func (p *logPane) Typing() bool { return p.typing }

// Update moves, filters and opens calls.
func (p *logPane) Update(msg tea.Msg) tea.Cmd {
	km, isKey := msg.(tea.KeyPressMsg)
	switch {
	case p.typing && isKey:
		return p.onFilterKey(km)
	case p.open != nil:
		p.onOpenKey(msg)
		return nil
	case !isKey:
		if wheel, ok := msg.(tea.MouseWheelMsg); ok {
			p.moveWheel(wheel)
		}
		return nil
	}
	k := p.keys
	page := max(p.bodyHeight()/2, 1)
	switch {
	case key.Matches(km, k.Up):
		p.move(-1)
	case key.Matches(km, k.Down):
		p.move(1)
	case key.Matches(km, k.PageUp):
		p.move(-page)
	case key.Matches(km, k.PageDown):
		p.move(page)
	case key.Matches(km, k.Top):
		p.move(-len(p.shown))
	case key.Matches(km, k.Bottom):
		p.move(len(p.shown))
	case key.Matches(km, k.OpenEntry):
		if len(p.shown) > 0 {
			p.open, p.openTop = p.outcomes[p.shown[p.cursor]], 0
			p.renderOpen()
		}
	case key.Matches(km, k.FilterStatus):
		p.filter.nextStatus()
		p.refilter()
	case key.Matches(km, k.OpenWorldOnly):
		p.filter.openWorld = !p.filter.openWorld
		p.refilter()
	case key.Matches(km, k.Filter):
		p.typing = true
		p.in.SetValue(p.filter.text)
		p.in.CursorEnd()
		return p.in.Focus()
	}
	return nil
}

func (p *logPane) moveWheel(m tea.MouseWheelMsg) {
	switch m.Button {
	case tea.MouseWheelUp:
		p.move(-1)
	case tea.MouseWheelDown:
		p.move(1)
	}
}

func (p *logPane) onFilterKey(km tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(km, p.keys.AcceptFilter):
		p.typing = false
		p.in.Blur()
		return nil
	case key.Matches(km, p.keys.CancelFilter):
		p.typing = false
		p.in.Blur()
		p.in.SetValue("")
		p.filter.text = ""
		p.refilter()
		return nil
	}
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(km)
	if v := p.in.Value(); v != p.filter.text {
		p.filter.text = v
		p.refilter()
	}
	return cmd
}

func (p *logPane) onOpenKey(msg tea.Msg) {
	if km, ok := msg.(tea.KeyPressMsg); ok && key.Matches(km, p.keys.Close) {
		p.open, p.openLines = nil, nil
		return
	}
	room := p.bodyHeight()
	switch km, _ := msg.(tea.KeyPressMsg); {
	case key.Matches(km, p.keys.PageUp):
		p.openTop -= room
	case key.Matches(km, p.keys.PageDown):
		p.openTop += room
	case key.Matches(km, p.keys.ScrollUp):
		p.openTop--
	case key.Matches(km, p.keys.ScrollDown):
		p.openTop++
	}
	if wheel, ok := msg.(tea.MouseWheelMsg); ok {
		p.openTop += map[tea.MouseButton]int{tea.MouseWheelUp: -1, tea.MouseWheelDown: 1}[wheel.Button]
	}
	p.openTop = min(max(p.openTop, 0), max(len(p.openLines)-room, 0))
}

// refilter applies a changed filter, keeping the cursor on its call when
// that call still passes.
func (p *logPane) refilter() {
	var keep *client.Outcome
	if len(p.shown) > 0 {
		keep = p.outcomes[p.shown[p.cursor]]
	}
	p.render()
	p.cursor = len(p.shown) - 1
	for i, o := range p.shown {
		if p.outcomes[o] == keep {
			p.cursor = i
		}
	}
	p.cursor = max(p.cursor, 0)
	p.scrollToCursor()
}

func (p *logPane) move(n int) {
	p.cursor = min(max(p.cursor+n, 0), max(len(p.shown)-1, 0))
	p.scrollToCursor()
}

// bodyHeight is what the header and the filter line leave for the calls.
func (p *logPane) bodyHeight() int {
	h := p.height - len(p.header)
	if p.filterLine() != "" {
		h--
	}
	return max(h, 0)
}

// scrollToCursor keeps the cursor's call, both its lines, on screen.
func (p *logPane) scrollToCursor() {
	room := p.bodyHeight()
	if len(p.blocks) == 0 || room == 0 {
		p.top = 0
		return
	}
	first := p.starts[p.cursor]
	last := first + len(p.blocks[p.cursor]) - 1
	if last >= p.top+room {
		p.top = last - room + 1
	}
	if first < p.top {
		p.top = first
	}
	p.top = min(max(p.top, 0), max(p.total-room, 0))
}

// View is the title, the filter when there is one, and as many calls as
// fit; or the opened call.
func (p *logPane) View() string {
	if p.height <= 0 || p.width <= 0 {
		return ""
	}
	out := append([]string(nil), p.header...)
	if f := p.filterLine(); f != "" {
		out = append(out, f)
	}
	room := p.bodyHeight()
	if p.open != nil {
		end := min(p.openTop+room, len(p.openLines))
		out = append(out, p.openLines[min(p.openTop, end):end]...)
	} else {
		out = append(out, p.rows(room)...)
	}
	if len(out) > p.height {
		out = out[:p.height]
	}
	return strings.Join(out, "\n")
}

// rows are the lines of the calls on screen, the cursor's call picked out.
func (p *logPane) rows(room int) []string {
	if len(p.blocks) == 0 {
		what := "no calls yet"
		if len(p.outcomes) > 0 {
			what = "no call matches the filter"
		}
		return []string{paneFit(p.st.Muted.Render(what), p.width)}
	}
	var out []string
	for i := range p.blocks {
		for j, l := range p.blocks[i] {
			n := p.starts[i] + j
			if n < p.top || n >= p.top+room {
				continue
			}
			if i == p.cursor {
				// The row's gutter is two spaces; the cursor takes the first.
				plain := ansi.Strip(l)
				if j == 0 {
					plain = "›" + plain[1:]
				}
				l = p.st.RowSelected.Render(panePad(plain, p.width))
			}
			out = append(out, l)
		}
	}
	return out
}

// Bindings are the pane's keys that work now, for the footer.
func (p *logPane) Bindings() []key.Binding {
	k := p.keys
	switch {
	case p.typing:
		return []key.Binding{k.AcceptFilter, k.CancelFilter}
	case p.open != nil:
		return []key.Binding{k.ScrollUp, k.ScrollDown, relabel(k.Close, "back to the calls")}
	}
	b := []key.Binding{k.Up, k.Down}
	if len(p.shown) > 0 {
		b = append(b, relabel(k.OpenEntry, "open the call"))
	}
	return append(b, relabel(k.FilterStatus, "status filter"), k.OpenWorldOnly, relabel(k.Filter, "find a tool or server"), k.Close)
}
