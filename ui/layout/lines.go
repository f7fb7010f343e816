package layout

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/style"
)

// Lines collects a pane's lines, each cut to width.
type Lines struct {
	Width int
	Out   []string // the lines so far
}

// Add adds a line, cut to the width.
func (l *Lines) Add(s string) { l.Out = append(l.Out, termtext.Truncate(s, l.Width)) }

// Blank adds an empty line.
func (l *Lines) Blank() { l.Out = append(l.Out, "") }

// Section adds a blank line and a section's title.
func (l *Lines) Section(st *style.Styles, title string) {
	l.Blank()
	l.Add(st.Label.Render(title))
}

// Wrap adds text wrapped to the width, in style.
func (l *Lines) Wrap(text string, style lipgloss.Style) {
	for _, para := range strings.Split(text, "\n") {
		for _, line := range strings.Split(ansi.Wrap(para, l.Width, " "), "\n") {
			l.Add(style.Render(line))
		}
	}
}

// WrapStyled wraps text that carries its own styles.
func (l *Lines) WrapStyled(text string) {
	for _, line := range strings.Split(ansi.Wrap(text, max(l.Width, 1), " "), "\n") {
		l.Add(line)
	}
}

// Hanging adds head, then text wrapped beside it with the lines after the
// first indented under the text's start; on a pane too narrow for that,
// the text goes under head, indented by two.
func (l *Lines) Hanging(head, text string, style lipgloss.Style) {
	l.HangingAt(head, text, " ", style)
}

// HangingAt is Hanging, breaking lines at any of breaks (", " for JSON).
// The text is cut past hangMax lines: the detail pane is drawn every frame,
// and a server's example or list of choices can be any size (the form
// shows them whole).
func (l *Lines) HangingAt(head, text, breaks string, style lipgloss.Style) {
	indent := ansi.StringWidth(head)
	text = clipCells(text, max(l.Width-indent, 16)*hangMax)
	if l.Width-indent < 16 {
		l.Add(head)
		l.WrapIndented(text, 2, style)
		return
	}
	pad := strings.Repeat(" ", indent)
	for i, line := range strings.Split(ansi.Wrap(text, l.Width-indent, breaks), "\n") {
		if i == 0 {
			l.Add(head + style.Render(line))
		} else {
			l.Add(pad + style.Render(line))
		}
	}
}

// hangMax is the most lines hanging text takes.
const hangMax = 8

// clipCells cuts s to at most cells cells, with "…" when cut, without
// measuring all of a long s first.
func clipCells(s string, cells int) string {
	if n := cells * 4; len(s) > n { // no cell takes more than 4 bytes
		s = s[:RuneStart(s, n)]
	}
	return termtext.Truncate(s, cells)
}

// WrapIndented adds text wrapped to the width with every line indented.
func (l *Lines) WrapIndented(text string, indent int, style lipgloss.Style) {
	pad := strings.Repeat(" ", indent)
	for _, line := range strings.Split(ansi.Wrap(text, max(l.Width-indent, 10), " "), "\n") {
		l.Add(pad + style.Render(line))
	}
}
