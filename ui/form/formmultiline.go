package form

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/style"
)

// A text field is one line until the user asks for another (the Newline
// key: enter moves on, as in every field): it then becomes a small text
// area, at most multiLineMax lines high, that holds the value with its line
// breaks. Numbers and integers stay on one line.

const multiLineMax = 6

// multiLine reports whether the field may hold more than one line.
func (ff *formField) multiLine() bool {
	switch ff.spec.Kind {
	case kindString, kindJSON:
		return true
	}
	return false
}

// text is what the field holds as typed.
func (ff *formField) text() string {
	if ff.area != nil {
		return ff.area.Value()
	}
	return ff.input.Value()
}

// newline breaks the line at the cursor, making the field a text area the
// first time.
func (ff *formField) newline(st *style.Styles) {
	if ff.area == nil {
		at := ff.input.Position()
		ff.toArea(st, ff.input.Value())
		ff.area.SetCursorColumn(at)
	}
	ff.area.InsertRune('\n')
	ff.fitArea()
}

// toArea makes the field a text area holding text, its cursor at the end.
func (ff *formField) toArea(st *style.Styles, text string) {
	a := textarea.New()
	a.Prompt = ""
	a.ShowLineNumbers = false
	a.CharLimit = 0
	a.MaxHeight = 0
	a.SetStyles(st.TextArea())
	// Enter moves to the next field and the form's Newline key breaks a
	// line itself: the area answers to neither.
	a.KeyMap.InsertNewline.SetEnabled(false)
	a.SetWidth(ff.input.Width())
	a.SetValue(text)
	ff.area = &a
	ff.input.Blur()
	ff.area.Focus()
	ff.fitArea()
}

// fitArea grows the area with its lines, up to multiLineMax.
func (ff *formField) fitArea() {
	if ff.area != nil {
		ff.area.SetHeight(min(max(ff.area.LineCount(), 1), multiLineMax))
	}
}

// areaLines are the area's first line and the others.
func (ff *formField) areaLines() (string, []string) {
	lines := strings.Split(ff.area.View(), "\n")
	return lines[0], lines[1:]
}

// setText shows text in the field: on one line when it has no line break.
// It reports false when the field cannot hold it exactly.
func (ff *formField) setText(st *style.Styles, text string) bool {
	ff.area = nil
	if !strings.Contains(text, "\n") {
		ff.input.SetValue(text)
		return ff.input.Value() == text
	}
	if !ff.multiLine() {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if !termtext.SafeLine(l) {
			return false
		}
	}
	ff.toArea(st, text)
	ff.area.Blur()
	return ff.area.Value() == text
}
