// Package confirm lays out the dialog that asks before a call runs, for the
// interactive view's confirmation (ui) and the console's approval
// (ui/watch) alike: the lines above the arguments and below them, which
// each side writes, around the arguments, which scroll when they do not
// fit, all within the screen's height.
package confirm

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// Frame is the dialog laid out in a height: its lines above the arguments
// and below them, the arguments drawn for the inner width, the room they
// have, and the first one shown.
type Frame struct {
	Inner        int
	Top, Bottom  []string
	Args         []string
	Room, ArgTop int
	Scrolls      bool
}

// Inner is the dialog's width inside its border on a screen width cells
// wide: never so narrow that a sentence is a word a line, never wider than
// reads well.
func Inner(width int) int { return min(max(width-6, 30), 76) }

// Parts writes the dialog's lines above the arguments and below them, for
// inner cells; compact cuts each sentence to one line, for small screens.
type Parts func(inner int, compact bool) (top, bottom *layout.Lines)

// Layout lays the dialog out in at most height lines, for a screen width
// cells wide, with args (drawn for Inner(width)) scrolled to argTop. When
// space is short the blank lines go first, then the longer sentences are
// cut to a line each, so that the arguments keep some room and the answers
// show.
func Layout(parts Parts, args []string, argTop, width, height int) Frame {
	f := Frame{Inner: Inner(width), Args: args}
	// The border takes two lines, the arguments' label one.
	const minArgs = 3
	need := min(minArgs, len(args))
	for _, compact := range []bool{false, true} {
		top, bottom := parts(f.Inner, compact)
		f.Room = height - 2 - 1 - len(top.Out) - len(bottom.Out)
		for f.Room < need {
			n := dropBlank(bottom)
			if n == 0 {
				n = dropBlank(top)
			}
			if n == 0 {
				break
			}
			f.Room += n
		}
		f.Top, f.Bottom = top.Out, bottom.Out
		if f.Room >= need {
			break
		}
	}
	f.Room = max(f.Room, 1)
	f.Scrolls = len(args) > f.Room
	if f.Scrolls {
		f.ArgTop = max(0, min(argTop, len(args)-f.Room))
	}
	return f
}

// Render draws the laid-out dialog in its border: the lines above, the
// arguments' label (saying which lines show and the keys that scroll them,
// when they scroll), the arguments shown, the lines below.
func Render(f Frame, st *style.Styles, keys *keymap.KeyMap) string {
	label := st.Label.Render("arguments")
	shown := f.Args
	if f.Scrolls {
		shown = f.Args[f.ArgTop : f.ArgTop+f.Room]
		var how []string
		if f.ArgTop+f.Room < len(f.Args) {
			how = append(how, keys.ScrollDown.Help().Key+" more")
		}
		if f.ArgTop > 0 {
			how = append(how, keys.ScrollUp.Help().Key+" back")
		}
		label += st.Muted.Render(fmt.Sprintf("  lines %d–%d of %d · %s", f.ArgTop+1, f.ArgTop+f.Room, len(f.Args), strings.Join(how, ", ")))
	}
	out := append(append([]string{}, f.Top...), label)
	out = append(out, shown...)
	out = append(out, f.Bottom...)
	for i, l := range out {
		out[i] = termtext.Pad(termtext.Truncate(l, f.Inner), f.Inner)
	}
	return st.Dialog.Render(strings.Join(out, "\n"))
}

// dropBlank removes the last blank line of l, and reports how many it removed.
func dropBlank(l *layout.Lines) int {
	for i := len(l.Out) - 1; i >= 0; i-- {
		if l.Out[i] == "" {
			l.Out = append(l.Out[:i], l.Out[i+1:]...)
			return 1
		}
	}
	return 0
}
