package resultview

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// Capped collects lines at most width cells wide, up to a number of lines
// and of bytes of server text; what does not fit is counted for a notice.
// The result view, the resource viewer, a prompt's messages and a sampling
// request draw server text with it.
type Capped struct {
	width, maxLines, maxBytes int
	lines                     []string
	shown                     int // bytes of server text drawn
	full                      bool
	hiddenLines, hiddenBytes  int
	// More is the command that shows all of it, for the notice.
	More string
}

// NewCapped collects at most maxLines lines and maxBytes bytes of server
// text, width cells wide.
func NewCapped(width, maxLines, maxBytes int) *Capped {
	return &Capped{width: max(1, width), maxLines: maxLines, maxBytes: maxBytes, More: "mcpsh call --json"}
}

// Lines are the lines collected.
func (w *Capped) Lines() []string { return w.lines }

// Reset starts the lines again, the caps spent so far kept.
func (w *Capped) Reset() { w.lines = nil }

// Full reports whether a cap was reached; Stop says one was, so nothing
// more is drawn.
func (w *Capped) Full() bool { return w.full }
func (w *Capped) Stop()      { w.full = true }

// Styled adds a line mcpsh made (already sanitized and styled), wrapped.
// These are few and small, so they do not count against the caps.
func (w *Capped) Styled(s string) {
	w.lines = append(w.lines, layout.Wrap(s, w.width)...)
}

// Blank adds an empty line between sections, unless the text is cut off.
func (w *Capped) Blank() {
	if !w.full && len(w.lines) < w.maxLines {
		w.lines = append(w.lines, "")
	}
}

// Text adds text from the server, line by line: sanitized, tabs expanded,
// wrapped and styled, until a cap is reached. The rest is only counted, so a
// result of any size costs little more than what is drawn.
func (w *Capped) Text(s string, style lipgloss.Style) {
	for {
		if w.full {
			w.hide(s)
			return
		}
		line, rest, more := strings.Cut(s, "\n")
		if room := w.maxBytes - w.shown; len(line) > room {
			cut := layout.RuneStart(line, room)
			w.line(line[:cut], style)
			w.hiddenBytes += len(line) - cut
			w.hiddenLines++
			w.full = true
			if more {
				w.hide(rest)
			}
			return
		}
		w.shown += len(line) + 1
		w.line(line, style)
		if !more {
			return
		}
		s = rest
	}
}

// line adds one line of server text (no newline in it).
func (w *Capped) line(raw string, style lipgloss.Style) {
	subs := layout.Wrap(layout.ExpandTabs(termtext.Sanitize(raw)), w.width)
	for i, sub := range subs {
		if len(w.lines) >= w.maxLines {
			w.full = true
			w.hiddenLines++
			for _, h := range subs[i:] {
				w.hiddenBytes += len(h)
			}
			return
		}
		w.lines = append(w.lines, style.Render(sub))
	}
}

// Rendered adds lines mcpsh drew from server text (already sanitized, styled
// and at most width cells), src bytes of it, within the caps.
func (w *Capped) Rendered(ls []string, src int) {
	start := w.shown
	for i, l := range ls {
		if w.full || len(w.lines) >= w.maxLines || w.shown >= w.maxBytes {
			w.full = true
			w.hiddenLines += len(ls) - i
			w.hiddenBytes += max(src-(w.shown-start), 0)
			return
		}
		w.shown += len(ansi.Strip(l)) + 1
		w.lines = append(w.lines, l)
	}
}

// Hide counts text that is not drawn, and draws no more.
func (w *Capped) Hide(s string) {
	w.full = true
	w.hide(s)
}

// hide counts text that is not drawn.
func (w *Capped) hide(s string) {
	w.hiddenLines += strings.Count(s, "\n") + 1
	w.hiddenBytes += len(s)
}

// Finish adds the notice for what was cut off, if anything was.
func (w *Capped) Finish(st *style.Styles) {
	if w.hiddenLines == 0 && w.hiddenBytes == 0 {
		return
	}
	lines := units.Plural(w.hiddenLines, "more line")
	w.lines = append(w.lines, "")
	w.Styled(st.Muted.Render(fmt.Sprintf("… %s not shown (%s); use `%s` for all of it", lines, client.HumanBytes(w.hiddenBytes), w.More)))
}
