package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
)

// palette is the batch commands' few colours, from the one theme
// (internal/theme) in the terminal's own sixteen colours, drawn in the
// stream's colour profile; all plain text when colour is off.
type palette = theme.Text

// pal is stdout's palette, palErr stderr's: each stream has its own colour
// decision and profile.
func (f *factory) pal() palette { return theme.NewText(theme.ANSI(), f.io.Color, f.io.Profile) }

func (f *factory) palErr() palette {
	return theme.NewText(theme.ANSI(), f.io.ColorErr, f.io.ProfileErr)
}

var classHeading = map[policy.Class]string{
	policy.ClassReadOnly:    "Read-only",
	policy.ClassWrite:       "Write",
	policy.ClassDestructive: "Destructive",
}

// printToolTable is the terminal form of `tools`: grouped by class, with titles,
// the name dimmed beside a title that differs, flags and example counts.
func (f *factory) printToolTable(s *client.Session) {
	p := f.pal()
	w := f.io.Out
	tools := s.Tools()
	groups := map[policy.Class][]*client.Tool{}
	for _, t := range tools {
		groups[t.Class()] = append(groups[t.Class()], t)
	}
	// The server is named as the user knows it; what it reports itself as
	// is shown only as that, under it.
	label := termtext.Line(s.Target.Label())
	info := s.Server()
	fmt.Fprintf(w, "%s · %s (%d read-only, %d write, %d destructive) · %s\n",
		p.Strong(label), units.Plural(len(tools), "tool"),
		len(groups[policy.ClassReadOnly]), len(groups[policy.ClassWrite]), len(groups[policy.ClassDestructive]),
		p.Muted(termtext.Line(s.Target.Via())))
	if r := info.Reported(); r != "" {
		fmt.Fprintln(w, p.Muted("reports itself as "+r))
	}
	if s.Target.Trust != policy.Trusted {
		fmt.Fprintln(w, p.Bad("untrusted server: its hints are shown but not believed; every call asks first"))
	}

	width := f.io.Width
	if width <= 0 {
		width = 100
	}
	titleW, nameW := 0, 0
	for _, t := range tools {
		titleW = max(titleW, ansi.StringWidth(termtext.Line(t.Title)))
		nameW = max(nameW, ansi.StringWidth(termtext.Line(t.Name)))
	}
	// Titles and names share what the flags leave, titles first.
	room := max(width-2-2-30, 20)
	titleW = min(titleW, room*3/5)
	nameW = min(nameW, room-titleW)
	for _, c := range policy.Classes {
		g := groups[c]
		if len(g) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", p.StrongClass(c, fmt.Sprintf("%s (%d)", classHeading[c], len(g))))
		for _, t := range g {
			nm := ""
			if t.Title != t.Name {
				nm = termtext.Line(t.Name)
			}
			extra := flagWords(t)
			if n := len(t.Examples); n > 0 {
				extra = append(extra, units.Plural(n, "example"))
			}
			line := "  " + termtext.Row("  ",
				termtext.Cell{Text: termtext.Line(t.Title), Width: titleW},
				termtext.Cell{Text: nm, Width: nameW, Style: p.Muted},
				termtext.Cell{Text: strings.Join(extra, "  ")})
			fmt.Fprintln(w, strings.TrimRight(termtext.Truncate(line, width), " "))
		}
	}
}

// printToolLines is the non-terminal form: one tab-separated line per tool
// (name, class, title, flags), easy to cut and grep.
func printToolLines(io *iostreams.IOStreams, tools []*client.Tool) {
	for _, t := range tools {
		printToolLine(io.Out, t)
	}
}

func printToolLine(w io.Writer, t *client.Tool) {
	fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", termtext.Line(t.Name), t.Class(), termtext.Line(t.Title), strings.Join(flagWords(t), ","))
}
