package overlays

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// Log lists every call of this session, oldest first (key L): the same
// calls the session log file records. A cursor moves over them (↑/↓), the
// list filters by status (f), to open-world calls (o) and by tool or server
// (typed after /), and enter opens a call: its arguments as the log keeps
// them and a summary of its result.
//
// Rows are drawn when the calls, the filter, the width or the theme change,
// never on View: a long session has many calls, and the cursor only
// restyles its row.
type Log struct {
	st       *style.Styles
	keys     *keymap.KeyMap
	logPath  string
	outcomes []*client.Outcome
	argsMode sessionlog.ArgsMode
	// servers: the view holds several, so each row names its server.
	servers bool
	width   int
	height  int

	header []string
	// shown are the indices into outcomes that pass the filter, oldest
	// first; blocks[i] are shown[i]'s lines, starts[i] the first of them in
	// list, which holds them all.
	shown  []int
	blocks [][]string
	starts []int
	list   scroll.Pane
	cursor int // index into shown

	filter logFilter
	typing bool // the text filter has the keys
	in     textinput.Model

	// open is the call opened with enter, drawn in openView.
	open     *client.Outcome
	openView scroll.Pane
}

// NewLog is the pane with no calls yet.
func NewLog(st *style.Styles, keys *keymap.KeyMap) *Log {
	in := textinput.New()
	in.Prompt = "/ "
	in.Placeholder = "tool or server"
	in.SetStyles(st.TextInput())
	return &Log{st: st, keys: keys, in: in, argsMode: sessionlog.ArgsRedact}
}

// SetServers says whether the view holds several servers, so that each row
// names its server. It takes effect from the next SetEntries.
func (p *Log) SetServers(several bool) { p.servers = several }

// Restyle draws the pane again in a new theme.
func (p *Log) Restyle() {
	p.in.SetStyles(p.st.TextInput())
	p.render()
	p.renderOpen()
}

// SetArgsMode says how the session log keeps arguments (--log-args), so an
// opened call shows them as they were logged. The log's default is redact.
func (p *Log) SetArgsMode(m sessionlog.ArgsMode) {
	p.argsMode = m
	p.renderOpen()
}

// SetSize sets the pane's size in cells.
func (p *Log) SetSize(width, height int) {
	p.height = height
	p.in.SetWidth(max(width/2, 8))
	if width != p.width {
		p.width = width
		p.render()
		p.renderOpen()
	}
	p.fit()
	p.scrollToCursor()
}

// fit gives the calls, or the opened call, what the header and the filter
// line leave.
func (p *Log) fit() {
	p.list.SetSize(p.width, p.bodyHeight())
	p.openView.SetSize(p.width, p.bodyHeight())
}

// SetEntries replaces the calls shown; logPath "" means logging is off. The
// cursor stays on its call; when it was on the newest, it moves to the new
// newest, so the pane follows the session unless the user moved up.
func (p *Log) SetEntries(logPath string, outcomes []*client.Outcome) {
	follow := len(p.shown) == 0 || p.cursor == len(p.shown)-1
	var keep *client.Outcome
	if !follow {
		keep = p.outcomes[p.shown[p.cursor]]
	}
	p.logPath, p.outcomes = logPath, outcomes
	p.renderKeeping(keep)
}

// renderKeeping draws the rows again with the cursor on keep, or on the
// newest call when keep is nil or no longer shown.
func (p *Log) renderKeeping(keep *client.Outcome) {
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
func (p *Log) render() {
	if p.width <= 0 {
		return
	}
	p.shown = p.shown[:0]
	for i, o := range p.outcomes {
		if o != nil && p.filter.match(o) {
			p.shown = append(p.shown, i)
		}
	}
	p.header, p.blocks = logParts(p.logPath, p.Shown(), p.servers, p.width, p.st)
	p.starts = make([]int, len(p.blocks))
	var lines []string
	for i, b := range p.blocks {
		p.starts[i] = len(lines)
		lines = append(lines, b...)
	}
	p.list.SetLines(lines)
	p.fit()
	p.cursor = min(max(p.cursor, 0), max(len(p.shown)-1, 0))
}

// WantsKey reports whether the pane takes msg before the keys that work on
// every overlay: all of them while a filter is typed, and esc while a call
// is open (it goes back to the list rather than closing the pane).
func (p *Log) WantsKey(msg tea.KeyPressMsg) bool {
	return p.typing || (p.open != nil && key.Matches(msg, p.keys.Close))
}

// Typing reports whether the text filter has the keys.
func (p *Log) Typing() bool { return p.typing }

// Selected is the call under the cursor; nil when no call is shown.
func (p *Log) Selected() *client.Outcome {
	if len(p.shown) == 0 {
		return nil
	}
	return p.outcomes[p.shown[p.cursor]]
}

// Shown are the calls that pass the filter, oldest first.
func (p *Log) Shown() []*client.Outcome {
	out := make([]*client.Outcome, len(p.shown))
	for i, o := range p.shown {
		out[i] = p.outcomes[o]
	}
	return out
}

// Opened is the call opened with enter; nil while the list is shown.
func (p *Log) Opened() *client.Outcome { return p.open }

// Height is the pane's height in lines.
func (p *Log) Height() int { return p.height }

// Update moves, filters and opens calls.
func (p *Log) Update(msg tea.Msg) tea.Cmd {
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
	if n, ok := scroll.CursorMove(km, k, max(p.bodyHeight()/2, 1), len(p.shown)); ok {
		p.move(n)
		return nil
	}
	switch {
	case key.Matches(km, k.OpenEntry):
		if len(p.shown) > 0 {
			p.open = p.outcomes[p.shown[p.cursor]]
			p.renderOpen()
			p.openView.ScrollTo(0)
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
		p.fit()
		return p.in.Focus()
	}
	return nil
}

func (p *Log) moveWheel(m tea.MouseWheelMsg) {
	switch m.Button {
	case tea.MouseWheelUp:
		p.move(-1)
	case tea.MouseWheelDown:
		p.move(1)
	}
}

func (p *Log) onFilterKey(km tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(km, p.keys.AcceptFilter):
		p.typing = false
		p.in.Blur()
		p.fit()
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

func (p *Log) onOpenKey(msg tea.Msg) {
	if km, ok := msg.(tea.KeyPressMsg); ok && key.Matches(km, p.keys.Close) {
		p.open = nil
		p.openView.SetLines(nil)
		return
	}
	p.openView.Scroll(msg, p.keys)
}

// refilter applies a changed filter, keeping the cursor on its call when
// that call still passes.
func (p *Log) refilter() {
	p.renderKeeping(p.Selected())
}

func (p *Log) move(n int) {
	p.cursor = min(max(p.cursor+n, 0), max(len(p.shown)-1, 0))
	p.scrollToCursor()
}

// bodyHeight is what the header and the filter line leave for the calls.
func (p *Log) bodyHeight() int {
	h := p.height - len(p.header)
	if p.typing || p.filter.active() {
		h-- // the filter line
	}
	return max(h, 0)
}

// scrollToCursor keeps the cursor's call, both its lines, on screen.
func (p *Log) scrollToCursor() {
	if len(p.blocks) == 0 || p.list.Height() == 0 {
		p.list.ScrollTo(0)
		return
	}
	first := p.starts[p.cursor]
	p.list.Show(first, first+len(p.blocks[p.cursor])-1)
}

// View is the title, the filter when there is one, and as many calls as
// fit; or the opened call.
func (p *Log) View() string {
	if p.height <= 0 || p.width <= 0 {
		return ""
	}
	out := append([]string(nil), p.header...)
	if f := p.filterLine(); f != "" {
		out = append(out, f)
	}
	if p.open != nil {
		out = append(out, p.openView.Visible()...)
	} else {
		out = append(out, p.rows()...)
	}
	if len(out) > p.height {
		out = out[:p.height]
	}
	return strings.Join(out, "\n")
}

// rows are the lines of the calls on screen, the cursor's call picked out.
func (p *Log) rows() []string {
	if len(p.blocks) == 0 {
		what := "no calls yet"
		if len(p.outcomes) > 0 {
			what = "no call matches the filter"
		}
		return []string{termtext.Truncate(p.st.Muted.Render(what), p.width)}
	}
	vis := p.list.Visible()
	out := make([]string, len(vis))
	first := p.starts[p.cursor]
	for i, l := range vis {
		j := p.list.Top() + i - first // the line's place in the cursor's call
		if j >= 0 && j < len(p.blocks[p.cursor]) {
			// The row's gutter is two spaces; the cursor takes the first.
			plain := ansi.Strip(l)
			if j == 0 {
				plain = "›" + plain[1:]
			}
			l = p.st.RowSelected.Render(termtext.Pad(plain, p.width))
		}
		out[i] = l
	}
	return out
}

// Bindings are the pane's keys that work now, for the footer.
func (p *Log) Bindings() []key.Binding {
	k := p.keys
	switch {
	case p.typing:
		return []key.Binding{k.AcceptFilter, k.CancelFilter}
	case p.open != nil:
		return []key.Binding{k.ScrollUp, k.ScrollDown, keymap.Relabel(k.Close, "back to the calls")}
	}
	b := []key.Binding{k.Up, k.Down}
	if len(p.shown) > 0 {
		b = append(b, keymap.Relabel(k.OpenEntry, "open the call"))
	}
	return append(b, keymap.Relabel(k.FilterStatus, "status filter"), k.OpenWorldOnly, keymap.Relabel(k.Filter, "find a tool or server"), k.Close)
}
