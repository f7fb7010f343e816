package form

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// View draws the form in at most height lines of at most width cells.
func (f *ArgForm) View() string {
	if f.width <= 0 || f.height <= 0 {
		return ""
	}
	lines := f.headerLines()
	room := max(f.height-len(lines), 0)
	switch {
	case f.picker:
		lines = append(lines, f.pickerLines(room)...)
	case f.jsonMode:
		lines = append(lines, strings.Split(f.editor.View(), "\n")...)
	case len(f.fields) > 0:
		lines = append(lines, f.fieldLines(room)...)
	}
	if len(lines) > f.height {
		lines = lines[:f.height]
	}
	for i, l := range lines {
		lines[i] = termtext.Truncate(l, f.width)
	}
	return strings.Join(lines, "\n")
}

// headerLines are the notes above the fields: what is wrong with the schema,
// the error that belongs to no field, a passing notice.
func (f *ArgForm) headerLines() []string {
	var out []string
	add := func(text string, style func(...string) string, maxLines int) {
		wrapped := strings.Split(ansi.Wrap(termtext.Line(text), max(f.width, 1), ""), "\n")
		if len(wrapped) > maxLines {
			wrapped = wrapped[:maxLines]
			wrapped[maxLines-1] = termtext.Truncate(wrapped[maxLines-1]+" …", f.width)
		}
		for _, l := range wrapped {
			out = append(out, style(l))
		}
	}
	if f.schemaErr != "" {
		add(f.schemaErr+"; edit the arguments as JSON", f.st.Warning.Render, 2)
	}
	if f.schemaNotice != "" {
		add(f.schemaNotice, f.st.Warning.Render, 2)
	}
	if f.topErr != "" {
		add("✗ "+f.topErr, f.st.Error.Render, 3)
	}
	if f.notice != "" {
		add(f.notice, f.st.Muted.Render, 2)
	}
	if !f.jsonMode && !f.picker && len(f.fields) == 0 && f.schemaErr == "" {
		add(f.words.empty, f.st.Muted.Render, 1)
	}
	// Leave the body at least a line when there is room for one.
	if len(out) >= f.height && f.height > 1 {
		out = out[:f.height-1]
	}
	return out
}

// labelWidth is the width of the name column: the longest name and its
// required mark, at most a third of the width.
func (f *ArgForm) labelWidth() int {
	w := 4
	for _, ff := range f.fields {
		w = max(w, ansi.StringWidth(termtext.Line(ff.label))+1)
	}
	return max(min(w, f.width/3), 1)
}

// blocks renders every field and says where each starts.
func (f *ArgForm) blocks() (lines []string, starts []int) {
	labelW := f.labelWidth()
	for i, ff := range f.fields {
		starts = append(starts, len(lines))
		lines = append(lines, ff.render(f.st, f.width, labelW, i == f.focus)...)
	}
	return lines, starts
}

// relayout sizes the inner bubbles and scrolls the field list so the focused
// field is in view. Everything that changes the form ends with it.
func (f *ArgForm) relayout() {
	if f.width <= 0 || f.height <= 0 {
		return
	}
	header := len(f.headerLines())
	room := max(f.height-header, 1)
	f.editor.SetWidth(f.width)
	f.editor.SetHeight(room)
	labelW := f.labelWidth()
	for _, ff := range f.fields {
		if !ff.isChoice() {
			ff.input.SetWidth(max(f.width-(2+labelW+2)-1, 1))
			if ff.area != nil {
				ff.area.SetWidth(max(f.width-(2+labelW+2)-1, 1))
			}
		}
	}
	if f.jsonMode || len(f.fields) == 0 {
		return
	}
	lines, starts := f.blocks()
	total := len(lines)
	if total <= room {
		f.offset = 0
		return
	}
	win := max(room-1, 1) // one line says what is hidden
	start, end := starts[f.focus], total
	if f.focus+1 < len(starts) {
		end = starts[f.focus+1]
	}
	switch {
	case end-start > win || start < f.offset:
		f.offset = start
	case end > f.offset+win:
		f.offset = end - win
	}
	f.offset = min(max(f.offset, 0), total-win)
}

// fieldLines is the window of the field list that fits in room lines, with a
// line saying what is scrolled out of view.
func (f *ArgForm) fieldLines(room int) []string {
	lines, _ := f.blocks()
	if len(lines) <= room {
		return lines
	}
	win := max(room-1, 1)
	off := min(max(f.offset, 0), len(lines)-win)
	out := append([]string(nil), lines[off:off+win]...)
	var more []string
	if off > 0 {
		more = append(more, fmt.Sprintf("↑ %d more", off))
	}
	if below := len(lines) - off - win; below > 0 {
		more = append(more, fmt.Sprintf("↓ %d more", below))
	}
	if room > 1 {
		out = append(out, f.st.Muted.Render(strings.Join(more, " · ")))
	}
	return out
}

// pickerLines lists the examples, numbered, each as one line of JSON.
func (f *ArgForm) pickerLines(room int) []string {
	if room <= 0 {
		return nil
	}
	out := []string{f.st.Label.Render("Input examples") + f.st.Muted.Render(" — 1–9 or ↑/↓ and enter to fill, esc to close")}
	win := max(room-1, 1)
	top := 0
	if f.pick >= win {
		top = f.pick - win + 1
	}
	for i := top; i < len(f.examples) && i < top+win; i++ {
		num := "  "
		if i < 9 {
			num = fmt.Sprintf("%d ", i+1)
		}
		text := termtext.Truncate(num+termtext.Line(compactJSON(f.examples[i])), max(f.width-2, 1))
		if i == f.pick {
			out = append(out, f.st.Focused.Render("▸ ")+f.st.RowSelected.Render(text))
		} else {
			out = append(out, "  "+f.st.Row.Render(text))
		}
	}
	return out
}
