package form

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// The server's suggestions for the field being typed in: kept as the server
// sent them, drawn made safe, narrowed as the person types.

// insertable reports whether a suggestion may go in a field: only as the
// server sent it, and only when it reads there as it is drawn among the
// suggestions (one line, nothing Sanitize would change, its widths
// included), so the value sent is the one the server offered and the one
// the person saw.
func insertable(v string) bool { return termtext.Line(v) == v }

// suggestionsShown is how many suggestions are drawn under a field.
const suggestionsShown = 6

func (f *StringForm) clearSuggestions() {
	f.sugg, f.suggFor, f.sel, f.more, f.suggErr = nil, -1, -1, 0, ""
}

// Suggestions are the server's values for the field they were asked for,
// narrowed by what was typed since.
func (f *StringForm) Suggestions() []string { return f.sugg }

// Unhighlight leaves the suggestions: it reports whether one was
// highlighted, which is then no longer.
func (f *StringForm) Unhighlight() bool {
	if f.sel < 0 {
		return false
	}
	f.sel = -1
	return true
}

// narrow keeps the suggestions that still start with what was typed, until
// the server's new answer replaces them: what is on screen never offers a
// value the typing has ruled out.
func (f *StringForm) narrow(v string) {
	f.sel = -1
	if f.suggFor != f.focus {
		return
	}
	var keep []string
	for _, s := range f.sugg {
		if strings.HasPrefix(strings.ToLower(s), strings.ToLower(v)) && s != v {
			keep = append(keep, s)
		}
	}
	f.sugg = keep
}

// SetSuggestions takes the server's answer for the focused field.
func (f *StringForm) SetSuggestions(c *client.Completion, err error) {
	f.clearSuggestions()
	f.suggFor = f.focus
	if err != nil {
		f.suggErr = "no suggestions: " + termtext.Line(err.Error())
		return
	}
	cur := f.fields[f.focus].in.Value()
	for _, v := range c.Values {
		// Kept as the server sent it, for the field; drawn made safe.
		if termtext.Line(v) != "" && v != cur {
			f.sugg = append(f.sugg, v)
		}
	}
	switch {
	case c.Total > len(c.Values):
		f.more = c.Total - len(c.Values)
	case c.HasMore:
		f.more = -1
	}
}

func (f *StringForm) suggestionLines(pad string) []string {
	st := f.st
	if f.suggErr != "" && f.suggFor == f.focus {
		return []string{pad + st.Warning.Render(f.suggErr)}
	}
	if f.suggFor != f.focus || len(f.sugg) == 0 {
		return nil
	}
	var out []string
	room := max(f.width-len(pad)-2, 1)
	for i, v := range f.sugg[:min(len(f.sugg), suggestionsShown)] {
		v = termtext.Line(v)
		if i == f.sel {
			out = append(out, pad+st.Focused.Render("▸ ")+st.RowSelected.Render(termtext.Truncate(v, room)))
		} else {
			out = append(out, pad+"  "+st.Row.Render(termtext.Truncate(v, room)))
		}
	}
	hidden := len(f.sugg) - suggestionsShown
	switch {
	case hidden > 0 && f.more > 0:
		out = append(out, pad+st.Muted.Render(fmt.Sprintf("  … %d more", hidden+f.more)))
	case hidden > 0:
		out = append(out, pad+st.Muted.Render(fmt.Sprintf("  … %d more", hidden)))
	case f.more != 0:
		out = append(out, pad+st.Muted.Render("  … more: type to narrow"))
	}
	return out
}
