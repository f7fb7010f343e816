// Package style is the interactive view's one set of styles, built from the
// semantic palette of internal/theme for dark and light terminals, or
// colourless under NO_COLOR. Views never pick colours themselves.
package style

import (
	"image/color"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/policy"
)

// Theme is mcpsh's palette by meaning (internal/theme), shared with the batch
// commands. Views never pick colours themselves: they use Styles, built from
// a Theme. The view starts with theme.Dark, the common case, and switches
// when the terminal says its background is light (SetBackground).
type Theme = theme.Theme

// Styles are every style the views use. With colour off (NO_COLOR), meaning
// is carried by text, bold, faint and reverse video instead.
type Styles struct {
	NoColor bool
	// theme counts the theme changes (SetBackground), so what was drawn
	// ahead with an older theme (the audit's lines) is known to be stale.
	theme int

	Header, HeaderDim  lipgloss.Style
	Banner             lipgloss.Style // the untrusted-server warning
	Section            map[policy.Class]lipgloss.Style
	Row, RowSelected   lipgloss.Style
	Name               lipgloss.Style // a tool's name beside its title
	Mark               lipgloss.Style // idempotent
	MarkOpenWorld      lipgloss.Style
	MarkImplied        lipgloss.Style
	Title              lipgloss.Style // a pane's title
	Label              lipgloss.Style
	Muted              lipgloss.Style
	Error, Warning, OK lipgloss.Style
	Focused            lipgloss.Style // the focused form field's label
	Border             lipgloss.Style // a pane's frame
	Dialog             lipgloss.Style // the confirmation dialog's frame
	DialogTitle        lipgloss.Style
	Footer             lipgloss.Style
	Key, KeyDesc       lipgloss.Style
	Filter             lipgloss.Style
	// Markdown (ui/markdown.go): headings (the first level underlined),
	// **strong**, *emphasis*, `code`, links and the bar of a quote.
	Heading1, Heading, Strong, Emphasis, Code, Link, Quote lipgloss.Style
	ProgressFull                                           color.Color
	ProgressEmpty                                          color.Color
}

// NewStyles builds Styles from t, or colourless ones when noColor.
func NewStyles(t Theme, noColor bool) *Styles {
	s := &Styles{NoColor: noColor}
	fg := func(c color.Color) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	s.Header = fg(t.Accent).Bold(true)
	s.HeaderDim = fg(t.Muted)
	s.Banner = fg(t.Error).Bold(true)
	if noColor {
		s.Banner = s.Banner.Reverse(true)
	}
	s.Section = map[policy.Class]lipgloss.Style{}
	for _, c := range policy.Classes {
		s.Section[c] = fg(t.Class(c)).Bold(true)
	}
	s.Row = fg(t.Text)
	s.RowSelected = fg(t.Text).Bold(true)
	if noColor {
		s.RowSelected = s.RowSelected.Reverse(true)
	} else {
		s.RowSelected = s.RowSelected.Background(t.SelectBg)
	}
	s.Name = fg(t.Muted).Faint(noColor)
	s.Mark = fg(t.Accent)
	s.MarkOpenWorld = fg(t.OpenWorld).Bold(true)
	s.MarkImplied = fg(t.Warning)
	s.Title = fg(t.Accent).Bold(true)
	s.Label = fg(t.Muted).Bold(true)
	s.Muted = fg(t.Muted).Faint(noColor)
	s.Error = fg(t.Error).Bold(true)
	s.Warning = fg(t.Warning)
	s.OK = fg(t.Success)
	s.Focused = fg(t.Accent).Bold(true)
	border := lipgloss.NewStyle().Border(lipgloss.RoundedBorder())
	if !noColor {
		border = border.BorderForeground(t.Border)
	}
	s.Border = border
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.DoubleBorder()).Padding(0, 1)
	if !noColor {
		s.Dialog = s.Dialog.BorderForeground(t.Destructive)
	}
	s.DialogTitle = fg(t.Destructive).Bold(true)
	s.Footer = fg(t.Muted)
	s.Key = fg(t.Accent).Bold(true)
	s.KeyDesc = fg(t.Muted)
	s.Filter = fg(t.Accent)
	s.Heading = fg(t.Accent).Bold(true)
	s.Heading1 = s.Heading.Underline(true)
	s.Strong = fg(t.Text).Bold(true)
	s.Emphasis = fg(t.Text).Italic(true)
	s.Code = fg(t.Write)
	s.Link = fg(t.Accent).Underline(true)
	s.Quote = fg(t.Border)
	if noColor {
		s.Code = s.Code.Faint(true)
	}
	s.ProgressFull, s.ProgressEmpty = t.Accent, t.Border
	return s
}

// ClassStyle is the style for text about a class of tool.
func (s *Styles) ClassStyle(c policy.Class) lipgloss.Style { return s.Section[c] }

// Copy is a copy of st for a command to draw with off the UI's goroutine,
// where the view may swap the theme meanwhile (SetBackground).
func (st *Styles) Copy() *Styles {
	c := *st
	return &c
}

// Generation counts the theme changes so far: lines drawn ahead under
// another generation were drawn with an older theme.
func (st *Styles) Generation() int { return st.theme }

// SetBackground rebuilds st in place for a terminal whose background is
// dark or light, so every component holding the pointer draws with the new
// styles, and counts the change. Under NO_COLOR there are no colours: it
// changes nothing and reports false.
func (st *Styles) SetBackground(dark bool) bool {
	if st.NoColor {
		return false
	}
	n := st.theme + 1
	*st = *NewStyles(theme.For(dark), false)
	st.theme = n
	return true
}

// TextInput dresses a text input in st, with a steady cursor (no blink
// timers).
func (st *Styles) TextInput() textinput.Styles {
	state := textinput.StyleState{Text: st.Row, Placeholder: st.Muted, Suggestion: st.Muted, Prompt: st.Muted}
	return textinput.Styles{
		Focused: state,
		Blurred: state,
		Cursor:  textinput.CursorStyle{Shape: tea.CursorBlock},
	}
}

// TextArea dresses a text area in st, with a steady cursor, as TextInput
// does a text input.
func (st *Styles) TextArea() textarea.Styles {
	state := textarea.StyleState{
		Base: st.Row, Text: st.Row, CursorLine: st.Row, Placeholder: st.Muted,
		EndOfBuffer: st.Muted, Prompt: st.Muted, LineNumber: st.Muted, CursorLineNumber: st.Muted,
		Selection: st.RowSelected,
	}
	return textarea.Styles{Focused: state, Blurred: state, Cursor: textarea.CursorStyle{Shape: tea.CursorBlock}}
}

// Draw is a style as a termtext.Cell's Style.
func Draw(s lipgloss.Style) func(string) string {
	return func(t string) string { return s.Render(t) }
}
