// Package theme is mcpsh's one palette, named by meaning, for the batch
// commands and the interactive view alike: the TUI builds its Styles from a
// Theme (ui/style/style.go), the batch commands their few styles (NewText). Each
// stream draws in its own colour profile, so a Theme never says how many
// colours a terminal has: Text converts to the profile it is given.
package theme

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/mcpsh/mcpsh/policy"
)

// Theme is the palette by meaning. Views never pick colours themselves.
type Theme struct {
	Accent      color.Color
	Text        color.Color
	Muted       color.Color
	Border      color.Color
	ReadOnly    color.Color
	Write       color.Color
	Destructive color.Color
	OpenWorld   color.Color
	Error       color.Color
	Warning     color.Color
	Success     color.Color
	SelectBg    color.Color
}

// Dark is for dark terminals, Light for light ones (ANSI 256 colours). The
// view starts dark, the common case, and switches when the terminal says its
// background is light. ui's TestThemesAreReadable keeps every colour that
// carries text at a contrast of 4.5:1 or more against its background (WCAG AA).
func Dark() Theme {
	return Theme{
		Accent:      lipgloss.Color("39"),
		Text:        lipgloss.Color("252"),
		Muted:       lipgloss.Color("246"),
		Border:      lipgloss.Color("241"),
		ReadOnly:    lipgloss.Color("42"),
		Write:       lipgloss.Color("214"),
		Destructive: lipgloss.Color("203"),
		OpenWorld:   lipgloss.Color("177"),
		Error:       lipgloss.Color("203"),
		Warning:     lipgloss.Color("214"),
		Success:     lipgloss.Color("42"),
		SelectBg:    lipgloss.Color("237"),
	}
}

// Light is Dark's meanings in darker colours, for light terminals.
func Light() Theme {
	return Theme{
		Accent:      lipgloss.Color("25"),
		Text:        lipgloss.Color("235"),
		Muted:       lipgloss.Color("242"),
		Border:      lipgloss.Color("246"),
		ReadOnly:    lipgloss.Color("28"),
		Write:       lipgloss.Color("130"),
		Destructive: lipgloss.Color("160"),
		OpenWorld:   lipgloss.Color("91"),
		Error:       lipgloss.Color("160"),
		Warning:     lipgloss.Color("130"),
		Success:     lipgloss.Color("28"),
		SelectBg:    lipgloss.Color("254"),
	}
}

// ANSI is the same meanings in the terminal's own sixteen colours, for a
// stream whose background is not known: the batch commands never ask the
// terminal (a question costs a round trip and can hang on a pipe), and the
// terminal's palette is chosen for its own background. Text and Muted are
// left to the terminal (nil): muted text is faint instead.
func ANSI() Theme {
	return Theme{
		Accent:      lipgloss.Blue,
		Border:      lipgloss.BrightBlack,
		ReadOnly:    lipgloss.Green,
		Write:       lipgloss.Yellow,
		Destructive: lipgloss.Red,
		OpenWorld:   lipgloss.Magenta,
		Error:       lipgloss.Red,
		Warning:     lipgloss.Yellow,
		Success:     lipgloss.Green,
	}
}

// For is the theme for a dark or a light background.
func For(dark bool) Theme {
	if dark {
		return Dark()
	}
	return Light()
}

// Class is the colour of a tool's class.
func (t Theme) Class(c policy.Class) color.Color {
	switch c {
	case policy.ClassReadOnly:
		return t.ReadOnly
	case policy.ClassWrite:
		return t.Write
	}
	return t.Destructive
}

// Text is a theme's styles for one output stream of the batch commands, in
// that stream's colour profile. The zero value, and one made for a stream
// without colour, returns text unchanged.
type Text struct {
	on                                   bool
	strong, muted, bad, warn, good, open lipgloss.Style
	class                                map[policy.Class]lipgloss.Style
	profile                              colorprofile.Profile
}

// NewText is t's styles for a stream with colour on or off, drawn in profile
// (a profile that is not known, or is not a terminal's, counts as ANSI:
// colour was decided on by the caller). ASCII keeps bold and faint only.
func NewText(t Theme, on bool, profile colorprofile.Profile) Text {
	if profile <= colorprofile.NoTTY {
		profile = colorprofile.ANSI
	}
	base := lipgloss.NewStyle().TabWidth(lipgloss.NoTabConversion)
	fg := func(c color.Color) lipgloss.Style {
		if c == nil || profile <= colorprofile.ASCII {
			return base
		}
		return base.Foreground(profile.Convert(c))
	}
	x := Text{on: on, profile: profile}
	x.strong = base.Bold(true)
	x.muted = fg(t.Muted).Faint(t.Muted == nil || profile <= colorprofile.ASCII)
	x.bad = fg(t.Error).Bold(profile <= colorprofile.ASCII) // without colour, an error is bold
	x.warn = fg(t.Warning)
	x.good = fg(t.Success)
	x.open = fg(t.OpenWorld)
	x.class = map[policy.Class]lipgloss.Style{}
	for _, c := range policy.Classes {
		x.class[c] = fg(t.Class(c))
	}
	return x
}

func (x Text) render(st lipgloss.Style, s string) string {
	if !x.on || s == "" {
		return s
	}
	// Line by line: lipgloss pads the lines of a block to one width.
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = st.Render(l)
		}
	}
	return strings.Join(lines, "\n")
}

// Strong is emphasis: bold.
func (x Text) Strong(s string) string { return x.render(x.strong, s) }

// Muted is what matters less: a path, a name beside its title.
func (x Text) Muted(s string) string { return x.render(x.muted, s) }

// Bad is an error or a refusal.
func (x Text) Bad(s string) string { return x.render(x.bad, s) }

// Warn is a warning.
func (x Text) Warn(s string) string { return x.render(x.warn, s) }

// Good is success.
func (x Text) Good(s string) string { return x.render(x.good, s) }

// OpenWorld marks what reaches beyond the server: an open-world call.
func (x Text) OpenWorld(s string) string { return x.render(x.open, s) }

// Class is s in its tool class's colour.
func (x Text) Class(c policy.Class, s string) string { return x.render(x.class[c], s) }

// StrongClass is s in its tool class's colour, bold: a section heading.
func (x Text) StrongClass(c policy.Class, s string) string {
	return x.render(x.class[c].Bold(true), s)
}
