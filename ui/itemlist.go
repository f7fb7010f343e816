package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/listing"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/fuzzy"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// itemList is the list of the resources and prompts views: rows under
// section headings, a cursor that skips the headings, a selection kept by
// key when the server lists them again, and a filter. Simpler than the tool
// list: no classes, no ranking (the server's order is kept).
type itemList struct {
	all    []listItem // every row, as listed
	rows   []listItem // the rows that pass the filter
	filter string
	cursor int // index into rows; -1 when there is nothing to select
	offset int
}

// listItem is a row: a heading, or an item the cursor can rest on. Of an
// item, the name is shown muted after the title when it differs, the
// description is found by the filter but not shown, and the key keeps the
// selection across listings.
type listItem struct {
	heading string
	listing.Item
	mark string // one cell at the right edge
}

// Set replaces the rows and keeps the cursor on the item with the same key,
// else at the same place.
func (l *itemList) Set(rows []listItem) {
	l.all = rows
	l.apply()
}

// SetFilter shows only the items whose title, name or description has
// every word of f (letters in order count too, as in the tool list).
func (l *itemList) SetFilter(f string) {
	if f == l.filter {
		return
	}
	l.filter = f
	l.apply()
}

// Filter is the filter the list shows.
func (l *itemList) Filter() string { return l.filter }

// Visible and Total are how many items pass the filter, and how many
// there are.
func (l *itemList) Visible() int { return items(l.rows) }
func (l *itemList) Total() int   { return items(l.all) }

func items(rows []listItem) int {
	n := 0
	for _, r := range rows {
		if r.heading == "" {
			n++
		}
	}
	return n
}

// apply works out the rows that pass the filter, a heading only over an
// item that does, and keeps the cursor on its item.
func (l *itemList) apply() {
	rows := l.all
	if words := strings.Fields(strings.ToLower(l.filter)); len(words) > 0 {
		rows = nil
		heading := -1
		for i, r := range l.all {
			switch {
			case r.heading != "":
				heading = i
			case r.matches(words):
				if heading >= 0 {
					rows = append(rows, l.all[heading])
					heading = -1
				}
				rows = append(rows, r)
			}
		}
	}
	l.place(rows)
}

func (r listItem) matches(words []string) bool {
	title, name := strings.ToLower(r.Title), strings.ToLower(r.Name)
	hay := title + "\x00" + name + "\x00" + strings.ToLower(r.Desc)
	for _, w := range words {
		if fuzzy.WordScore(w, hay, name, title) == 0 {
			return false
		}
	}
	return true
}

// place shows rows, with the cursor on the item it was on, else at the same
// place.
func (l *itemList) place(rows []listItem) {
	keep := ""
	if it, ok := l.Selected(); ok {
		keep = it.Key()
	}
	old := l.cursor
	l.rows, l.cursor = rows, -1
	for i, r := range rows {
		if r.heading == "" && keep != "" && r.Key() == keep {
			l.cursor = i
			return
		}
	}
	l.cursor = l.nearest(max(old, 0), 1)
	if l.cursor < 0 {
		l.cursor = l.nearest(len(l.rows)-1, -1)
	}
}

// nearest is the first item at or after i going dir, or -1.
func (l *itemList) nearest(i, dir int) int { return scroll.Nearest(i, dir, len(l.rows), l.isItem) }

func (l *itemList) isItem(i int) bool    { return l.rows[i].heading == "" }
func (l *itemList) isHeading(i int) bool { return l.rows[i].heading != "" }

// Selected is the item under the cursor.
func (l *itemList) Selected() (listItem, bool) {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return listItem{}, false
	}
	return l.rows[l.cursor], true
}

// Move moves the cursor n items, stopping at the ends.
func (l *itemList) Move(n int) { l.cursor = scroll.Step(l.cursor, n, len(l.rows), l.isItem) }

func (l *itemList) Top() {
	if i := l.nearest(0, 1); i >= 0 {
		l.cursor = i
	}
}

// Layout scrolls the list for height rows so the cursor is in view, its
// heading too when it fits. Update calls it (Model.prepareFrame).
func (l *itemList) Layout(height int) {
	if height > 0 {
		l.offset = l.scrollFor(height)
	}
}

// scrollFor is the first row on screen for height rows.
func (l *itemList) scrollFor(height int) int {
	return scroll.Window(l.offset, l.cursor, height, len(l.rows), l.isHeading)
}

// View draws height lines of at most width cells, from where Layout left
// the list.
func (l *itemList) View(st *style.Styles, width, height int) string {
	if height <= 0 || width <= 0 {
		return ""
	}
	off := l.scrollFor(height)
	out := make([]string, 0, height)
	for i := off; i < len(l.rows) && len(out) < height; i++ {
		out = append(out, l.row(st, i, width))
	}
	return strings.Join(out, "\n")
}

func (l *itemList) row(st *style.Styles, i, width int) string {
	r := l.rows[i]
	if r.heading != "" {
		return st.Label.Render(termtext.Truncate(r.heading, width))
	}
	cursor, style := "  ", st.Row
	if i == l.cursor {
		cursor, style = "› ", st.RowSelected
	}
	markW := 0
	if r.mark != "" {
		markW = 2
	}
	room := max(width-2-markW, 1)
	title := termtext.Truncate(termtext.Line(r.Title), room)
	text := style.Render(title)
	if name := termtext.Line(r.Name); name != "" && name != termtext.Line(r.Title) {
		if left := room - ansi.StringWidth(title) - 2; left >= 4 {
			text += "  " + st.Name.Render(termtext.Truncate(name, left))
		}
	}
	line := cursor + text
	if markW > 0 {
		line = termtext.Pad(line, width-markW) + " " + st.Mark.Render(r.mark)
	}
	return line
}
