// Package scroll is the scrolling body every pane of the interactive view
// shares, and the keys that move a list's cursor.
package scroll

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
)

// Pane is the scrolling body every pane shares (the audit, result, resource,
// prompt, session log, server output, traffic and help): a window of height
// lines over lines drawn ahead of time (wrapped, styled, at most the width
// wide), made when the content, the width or the theme changes and never
// on View. Every change keeps the window in range, so View only slices.
//
// It is ours rather than bubbles' viewport: the viewport measures every line
// each time it is given content and clamps on every scroll by walking them
// again, and the audit of a large server has hundreds of thousands of lines
// while a chatty server adds one per message. Here setting lines costs
// nothing per line, appending is amortised O(1), and View is O(height).
//
// The lists with a cursor (the session log, the traffic) keep their cursor
// themselves and use the pane for the window: Show brings the cursor's lines
// into view, and they restyle the cursor's row. A list whose rows are cheap
// to draw and many to keep (the traffic) gives only their number (SetRows)
// and draws the rows in Window itself.
type Pane struct {
	lines  []string // nil after SetRows
	n      int      // lines, drawn or not
	top    int      // first line on screen
	width  int
	height int // lines on screen
	// page is how far a page key moves; 0 is a screenful.
	page int
	// tail makes the pane follow: it stays at the bottom as lines come in
	// (follow) until the user scrolls up, and follows again from the bottom.
	tail, follow bool
}

// wheelLines is how far one step of the mouse wheel scrolls, as in bubbles.
const wheelLines = 3

// NewTail is a pane that follows the newest line.
func NewTail() Pane { return Pane{tail: true, follow: true} }

// SetSize sets the window's size in cells, keeping it in range. It reports
// whether the width changed: the lines are then to be drawn again.
func (p *Pane) SetSize(width, height int) (widthChanged bool) {
	widthChanged = width != p.width
	p.width, p.height = width, max(height, 0)
	p.clamp()
	return widthChanged
}

// SetPage sets how far a page key moves, in lines; 0 is a screenful.
func (p *Pane) SetPage(n int) { p.page = n }

// Width is the window's width in cells.
func (p *Pane) Width() int { return p.width }

// SetLines replaces the lines. The window keeps its place (or the bottom,
// when following).
func (p *Pane) SetLines(ls []string) {
	p.lines, p.n = ls, len(ls)
	p.clamp()
}

// SetRows makes the pane a window over n rows its owner draws.
func (p *Pane) SetRows(n int) {
	p.lines, p.n = nil, n
	p.clamp()
}

// Append adds lines at the end.
func (p *Pane) Append(ls ...string) {
	p.lines = append(p.lines, ls...)
	p.n = len(p.lines)
	p.clamp()
}

// Cut removes n lines from line from on, keeping the text on screen where
// it was: lines cut above the window move it up. The lines before from are
// moved rather than the rest, so cutting the oldest lines under a short
// heading (the server's instructions) costs the heading, not the pane.
func (p *Pane) Cut(from, n int) {
	n = min(n, p.n-from)
	if n <= 0 {
		return
	}
	if p.lines != nil {
		copy(p.lines[n:], p.lines[:from])
		clear(p.lines[:n])
		p.lines = p.lines[n:]
	}
	p.n -= n
	switch {
	case p.top >= from+n:
		p.top -= n
	case p.top > from:
		p.top = from
	}
	p.clamp()
}

// Lines are the pane's lines: read them, do not write them.
func (p *Pane) Lines() []string { return p.lines }

// Len is the number of lines.
func (p *Pane) Len() int { return p.n }

// Top is the first line on screen.
func (p *Pane) Top() int { return p.top }

// Height is the number of lines on screen.
func (p *Pane) Height() int { return p.height }

// MaxTop is the top of the window at the bottom of the lines.
func (p *Pane) MaxTop() int { return max(p.n-p.height, 0) }

// clamp keeps the window in range, at the bottom when following.
func (p *Pane) clamp() {
	if p.tail && p.follow {
		p.top = p.MaxTop()
		return
	}
	p.top = min(max(p.top, 0), p.MaxTop())
}

// ScrollTo puts line top first on screen, as far as the lines allow (the
// bottom, in a pane that follows).
func (p *Pane) ScrollTo(top int) {
	p.top = top
	p.clamp()
}

// Show scrolls as little as it takes to bring lines first to last into
// view; when they do not all fit, first wins.
func (p *Pane) Show(first, last int) {
	top := p.top
	if last >= top+p.height {
		top = last - p.height + 1
	}
	if first < top {
		top = first
	}
	p.ScrollTo(top)
}

// move is the user scrolling to top: in a pane that follows, leaving the
// bottom stops following and reaching it again follows.
func (p *Pane) move(top int) {
	p.top = min(max(top, 0), p.MaxTop())
	if p.tail {
		p.follow = p.top >= p.MaxTop()
	}
}

// pageLines is how far a page key moves.
func (p *Pane) pageLines() int {
	if p.page > 0 {
		return p.page
	}
	return max(p.height, 1)
}

// Scroll applies the scrolling keys (line, page, top, bottom) and the mouse
// wheel, and reports whether msg was one of them.
func (p *Pane) Scroll(msg tea.Msg, keys *keymap.KeyMap) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, keys.PageUp):
			p.move(p.top - p.pageLines())
		case key.Matches(msg, keys.PageDown):
			p.move(p.top + p.pageLines())
		case key.Matches(msg, keys.Top):
			p.move(0)
		case key.Matches(msg, keys.Bottom):
			p.move(p.MaxTop())
		case key.Matches(msg, keys.ScrollUp):
			p.move(p.top - 1)
		case key.Matches(msg, keys.ScrollDown):
			p.move(p.top + 1)
		default:
			return false
		}
		return true
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.move(p.top - wheelLines)
		case tea.MouseWheelDown:
			p.move(p.top + wheelLines)
		default:
			return false
		}
		return true
	}
	return false
}

// Window is the rows on screen: from, up to but not including to.
func (p *Pane) Window() (from, to int) {
	from = min(p.top, p.n)
	return from, min(from+p.height, p.n)
}

// Visible are the lines on screen, in the pane's own slice: read them, do
// not write them.
func (p *Pane) Visible() []string {
	from, to := p.Window()
	if p.lines == nil {
		return nil
	}
	return p.lines[from:to]
}

// Fitted are the lines on screen, each cut to the width: lines drawn for a
// wider pane (the audit's, until they are drawn again) never spill over.
func (p *Pane) Fitted() []string {
	vis := p.Visible()
	if len(vis) == 0 || p.width <= 0 {
		return nil
	}
	out := make([]string, len(vis))
	for i, l := range vis {
		out[i] = termtext.Truncate(l, p.width)
	}
	return out
}

// View is the lines on screen, each cut to the width.
func (p *Pane) View() string { return strings.Join(p.Fitted(), "\n") }

// CursorMove is how far the keys that move a list's cursor (up, down, a
// page, the top, the bottom) move it over n items, and whether msg is one.
// The lists with a cursor share them: the tool list's resources and prompts
// views, the session log and the traffic.
func CursorMove(msg tea.KeyPressMsg, keys *keymap.KeyMap, page, n int) (int, bool) {
	switch {
	case key.Matches(msg, keys.Up):
		return -1, true
	case key.Matches(msg, keys.Down):
		return 1, true
	case key.Matches(msg, keys.PageUp):
		return -page, true
	case key.Matches(msg, keys.PageDown):
		return page, true
	case key.Matches(msg, keys.Top):
		return -n, true
	case key.Matches(msg, keys.Bottom):
		return n, true
	}
	return 0, false
}
