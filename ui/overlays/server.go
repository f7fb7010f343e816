package overlays

import (
	"fmt"
	"github.com/mcpsh/mcpsh/ui/layout"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

const (
	// serverPaneMax is how many lines the server pane keeps; older ones are
	// dropped and counted.
	serverPaneMax = 5000
	// serverTextMax caps one event's text: a stderr line or log message can
	// be as long as a server likes.
	serverTextMax = 64 << 10
	serverTagW    = len("log:emergency")
	serverPrefixW = len("15:04:05") + 1 + serverTagW + 1
	serverLevelW  = len("emergency")
)

// serverTone picks a server line's style; lines keep this, not the style.
type serverTone uint8

const (
	toneRow serverTone = iota
	toneMuted
	toneWarning
	toneError
)

func (t serverTone) style(st *style.Styles) lipgloss.Style {
	switch t {
	case toneMuted:
		return st.Muted
	case toneWarning:
		return st.Warning
	case toneError:
		return st.Error
	}
	return st.Row
}

// serverLine is one line the server pane keeps, with its drawn form's size.
type serverLine struct {
	time    string // HH:MM:SS; "" on the continuation lines of an event
	tag     string
	tagTone serverTone
	tone    serverTone
	text    string // sanitized, one line, tabs expanded
	n       int    // lines it takes once wrapped
}

// Server shows everything the server said outside calls (key S): its
// stderr, its log messages, and mcpsh's notices about reconnecting and tool
// list changes. It keeps the last serverPaneMax lines and follows the newest
// unless the user has scrolled up.
//
// Lines are drawn once, when they arrive (and again only when the width or
// the theme changes), into a pane that follows the newest; View slices out
// the visible ones. Bubble Tea draws after every message, so a chatty
// server costs O(1) per line it writes, not O(lines).
type Server struct {
	st     *style.Styles
	keys   *keymap.KeyMap
	width  int
	height int

	// instructions are the server's, drawn above its output as the body's
	// first introN lines.
	instructions string
	introN       int

	lines   []serverLine
	dropped int         // lines dropped from the front so far
	body    scroll.Pane // the instructions, then lines, drawn
}

// NewServer is the pane with nothing from the server yet.
func NewServer(st *style.Styles, keys *keymap.KeyMap) *Server {
	return &Server{st: st, keys: keys, body: scroll.NewTail()}
}

// SetInstructions shows the server's instructions (from the handshake) at
// the top of the pane, before anything it says.
func (p *Server) SetInstructions(text string) {
	p.instructions = text
	intro := p.drawIntro()
	p.body.SetLines(append(intro, p.body.Lines()[p.introN:]...))
	p.introN = len(intro)
}

// serverIntroMax caps the instructions drawn: they are the server's, and
// the pane is for its output.
const serverIntroMax = 200

func (p *Server) drawIntro() []string {
	text := strings.TrimSpace(p.instructions)
	if text == "" || p.width <= 0 {
		return nil
	}
	if len(text) > serverTextMax {
		text = text[:layout.RuneStart(text, serverTextMax)] + " …"
	}
	intro := []string{p.st.Label.Render("Instructions")}
	for _, l := range layout.WrapCapped(termtext.Sanitize(text), p.width, serverIntroMax) {
		intro = append(intro, p.st.Row.Render(l))
	}
	return append(intro, p.st.Muted.Render(strings.Repeat("─", p.width)))
}

// SetSize sets the pane's size in cells.
func (p *Server) SetSize(width, height int) {
	p.height = height
	if width == p.width {
		p.fit()
		return
	}
	off := p.body.Top()
	p.width = width
	p.fit()
	p.redraw(off)
}

// redraw draws every line again, for a new width or theme, keeping the line
// that was at off on top.
func (p *Server) redraw(off int) {
	inIntro := off < p.introN
	top := p.lineAt(off - p.introN)
	out := p.drawIntro()
	introN, at := len(out), 0
	for i := range p.lines {
		if i == top {
			at = len(out)
		}
		out = append(out, p.draw(&p.lines[i])...)
	}
	if inIntro {
		at = min(off, introN)
	}
	p.introN = introN
	p.body.SetLines(out)
	p.body.ScrollTo(at)
}

// Restyle draws the lines again in a new theme.
func (p *Server) Restyle() { p.redraw(p.body.Top()) }

// fit gives the body what the header leaves: the title, and the line
// about dropped lines once there are any.
func (p *Server) fit() {
	header := 1
	if p.dropped > 0 {
		header++
	}
	p.body.SetSize(p.width, max(0, p.height-header))
}

// lineAt is the index in lines of the line drawn at line r of the output;
// 0 for a line of the instructions (r < 0).
func (p *Server) lineAt(r int) int {
	r = max(r, 0)
	for i, l := range p.lines {
		if r < l.n {
			return i
		}
		r -= l.n
	}
	return len(p.lines)
}

// Len is the number of lines kept.
func (p *Server) Len() int { return len(p.lines) }

// Append adds an event's text, one line per line of it.
func (p *Server) Append(e client.Event) {
	l := serverLine{time: e.Time.Format("15:04:05"), tagTone: toneMuted, tone: toneRow}
	text := e.Text
	switch e.Kind {
	case client.EventStderr:
		l.tag = "stderr"
	case client.EventLog:
		level := termtext.Truncate(termtext.Line(e.Level), serverLevelW)
		l.tag = "log:" + level
		l.tone = serverLevelTone(level)
		l.tagTone = l.tone
		if e.Logger != "" {
			text = "[" + e.Logger + "] " + text
		}
	case client.EventWarning:
		l.tag, l.tagTone, l.tone = "mcpsh", toneMuted, serverLevelTone("warning")
	case client.EventReconnected:
		l.tag, l.tone = "mcpsh", toneMuted
		if text == "" {
			text = "reconnected to the server"
		}
	case client.EventToolsChanged:
		l.tag, l.tone = "mcpsh", toneMuted
		text = "the server's tool list changed; listing the tools again"
		if e.Text != "" {
			text += ": " + e.Text
		}
	case client.EventResourcesChanged:
		l.tag, l.tone = "mcpsh", toneMuted
		text = "the server's resource list changed; listing the resources again"
	case client.EventPromptsChanged:
		l.tag, l.tone = "mcpsh", toneMuted
		text = "the server's prompt list changed; listing the prompts again"
	case client.EventResourceUpdated:
		l.tag, l.tone = "mcpsh", toneMuted
		text = "the server says it updated " + e.Text
	case client.EventRequest:
		l.tag = "request"
	default:
		l.tag = termtext.Truncate(termtext.Line(string(e.Kind)), serverTagW)
	}
	if len(text) > serverTextMax {
		cut := layout.RuneStart(text, serverTextMax)
		text = fmt.Sprintf("%s … (%s more not shown)", text[:cut], client.HumanBytes(len(text)-cut))
	}
	parts := strings.Split(strings.TrimRight(termtext.Sanitize(text), "\n"), "\n")
	if over := len(parts) - serverPaneMax; over > 0 {
		p.dropped += over
		parts = parts[over:]
	}
	for i, s := range parts {
		line := l
		if i > 0 {
			line.time, line.tag = "", ""
		}
		line.text = layout.ExpandTabs(s)
		p.push(line)
	}
}

func serverLevelTone(level string) serverTone {
	switch strings.ToLower(level) {
	case "error", "critical", "alert", "emergency":
		return toneError
	case "warning", "warn":
		return toneWarning
	case "debug":
		return toneMuted
	}
	return toneRow
}

// push keeps l, drawn, and drops the oldest line past the limit. A view
// scrolled up keeps showing the same text while lines above it go.
func (p *Server) push(l serverLine) {
	p.body.Append(p.draw(&l)...)
	p.lines = append(p.lines, l)
	for len(p.lines) > serverPaneMax {
		n := p.lines[0].n
		p.lines[0] = serverLine{}
		p.lines = p.lines[1:]
		p.body.Cut(p.introN, n)
		if p.dropped++; p.dropped == 1 {
			p.fit() // the header now says lines were dropped
		}
	}
}

// draw wraps l to the pane's width, and counts its lines in l.n.
func (p *Server) draw(l *serverLine) []string {
	l.n = 0
	if p.width <= 0 {
		return nil // drawn when the pane gets a size
	}
	var out []string
	style := l.tone.style(p.st)
	textW := p.width - serverPrefixW
	if textW < 16 {
		// Too narrow for columns: wrap the whole line.
		s := l.text
		if l.time != "" {
			s = l.time + " " + l.tag + " " + s
		}
		for _, sub := range layout.Wrap(s, p.width) {
			out = append(out, style.Render(sub))
		}
		l.n = len(out)
		return out
	}
	indent := strings.Repeat(" ", serverPrefixW)
	for i, sub := range layout.Wrap(l.text, textW) {
		prefix := indent
		if i == 0 && l.time != "" {
			prefix = p.st.Muted.Render(l.time) + " " + l.tagTone.style(p.st).Render(termtext.Pad(l.tag, serverTagW)) + " "
		}
		out = append(out, prefix+style.Render(sub))
	}
	l.n = len(out)
	return out
}

// header is the title, and the notice of dropped lines once there are any.
func (p *Server) header() []string {
	h := []string{termtext.Truncate(p.st.Title.Render("Server output")+"  "+p.st.Muted.Render("stderr, log messages and notices"), max(1, p.width))}
	if p.dropped > 0 {
		h = append(h, termtext.Truncate(p.st.Muted.Render(fmt.Sprintf("… %d earlier lines dropped", p.dropped)), max(1, p.width)))
	}
	return h
}

// Update scrolls: by line, page, to the top or bottom, or by the mouse wheel.
// Scrolling up stops following new lines; reaching the bottom again follows
// them.
func (p *Server) Update(msg tea.Msg) tea.Cmd {
	p.body.Scroll(msg, p.keys)
	return nil
}

// View is the pane's height in lines: the header, then the visible text.
func (p *Server) View() string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	out := p.header()
	if len(p.lines) == 0 && p.introN == 0 {
		out = append(out, termtext.Truncate(p.st.Muted.Render("nothing from the server yet"), p.width))
	}
	if len(out) >= p.height {
		return strings.Join(out[:p.height], "\n")
	}
	out = append(out, p.body.Visible()...)
	for len(out) < p.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
