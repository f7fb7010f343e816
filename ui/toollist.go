package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// toolList is the left pane: the server's tools grouped by safety class, with a
// filter. It renders only the rows on screen, so it stays quick with thousands
// of tools; filtering is one pass over lower-cased text prepared once per listing.
type toolList struct {
	tools []*client.Tool
	// haystack[i] is tools[i]'s title, name and description, lower-cased.
	haystack []string
	// label[i] is tools[i]'s title and name, sanitized for the screen.
	title, name []string

	// conflicts: some tool declares readOnlyHint and destructiveHint both true,
	// so the legend explains its mark.
	conflicts bool

	filter string
	rows   []listRow // section headings and the tools that pass the filter
	counts map[policy.Class]int
	cursor int // index into rows; always a tool row when there is one
	offset int // first row on screen
}

type listRow struct {
	heading policy.Class // set on a section heading
	tool    int          // index into tools, for a tool row
}

func (r listRow) isHeading() bool { return r.heading != "" }

// SetTools replaces the listing, keeping the selection on the same tool name
// when it is still there (tools/list_changed must not lose the user's place).
func (l *toolList) SetTools(tools []*client.Tool) {
	keep := ""
	if t := l.Selected(); t != nil {
		keep = t.Name
	}
	l.tools = tools
	l.haystack = make([]string, len(tools))
	l.title = make([]string, len(tools))
	l.name = make([]string, len(tools))
	l.conflicts = false
	for i, t := range tools {
		l.conflicts = l.conflicts || t.Hints.Conflict()
		l.title[i] = termtext.Line(t.Title)
		l.name[i] = termtext.Line(t.Name)
		l.haystack[i] = strings.ToLower(t.Title + "\x00" + t.Name + "\x00" + t.Description)
	}
	l.rebuild(keep)
}

// SetFilter shows only tools whose title, name or description contain every
// word of f, case-insensitively.
func (l *toolList) SetFilter(f string) {
	if f == l.filter {
		return
	}
	keep := ""
	if t := l.Selected(); t != nil {
		keep = t.Name
	}
	l.filter = f
	l.rebuild(keep)
}

func (l *toolList) rebuild(keep string) {
	words := strings.Fields(strings.ToLower(l.filter))
	byClass := map[policy.Class][]int{}
	for i, t := range l.tools {
		if matchesAll(l.haystack[i], words) {
			byClass[t.Class()] = append(byClass[t.Class()], i)
		}
	}
	l.rows = l.rows[:0]
	l.counts = map[policy.Class]int{}
	for _, c := range policy.Classes {
		l.rows = append(l.rows, listRow{heading: c})
		l.counts[c] = len(byClass[c])
		for _, i := range byClass[c] {
			l.rows = append(l.rows, listRow{tool: i})
		}
	}
	l.cursor = l.firstTool(0, 1)
	if keep != "" {
		for i, r := range l.rows {
			if !r.isHeading() && l.tools[r.tool].Name == keep {
				l.cursor = i
				break
			}
		}
	}
	l.offset = 0
}

func matchesAll(hay string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// firstTool finds the nearest tool row from i in direction dir, or -1.
func (l *toolList) firstTool(i, dir int) int {
	for ; i >= 0 && i < len(l.rows); i += dir {
		if !l.rows[i].isHeading() {
			return i
		}
	}
	return -1
}

// Selected is the tool under the cursor, or nil when none passes the filter.
func (l *toolList) Selected() *client.Tool {
	if l.cursor < 0 || l.cursor >= len(l.rows) || l.rows[l.cursor].isHeading() {
		return nil
	}
	return l.tools[l.rows[l.cursor].tool]
}

// Visible is how many tools pass the filter.
func (l *toolList) Visible() int { return len(l.rows) - len(policy.Classes) }

// Move moves the cursor by n tools, skipping headings and stopping at the ends.
func (l *toolList) Move(n int) {
	if l.cursor < 0 {
		return
	}
	dir := 1
	if n < 0 {
		dir, n = -1, -n
	}
	for ; n > 0; n-- {
		next := l.firstTool(l.cursor+dir, dir)
		if next < 0 {
			break
		}
		l.cursor = next
	}
}

// Top and Bottom jump to the first and last tool.
func (l *toolList) Top()    { l.cursor = l.firstTool(0, 1) }
func (l *toolList) Bottom() { l.cursor = l.firstTool(len(l.rows)-1, -1) }

// Marks shown beside a tool. The legend under the list explains them.
const (
	markIdempotent = "↻"
	markOpenWorld  = "◆"
	markImplied    = "~"
	// markConflict takes the place of markImplied: a tool declared both
	// read-only and destructive, read as destructive.
	markConflict = "!"
)

// View renders height lines of at most width cells.
func (l *toolList) View(st *Styles, width, height int) string {
	if height <= 0 || width <= 0 {
		return ""
	}
	legendText := markIdempotent + " idempotent  " + markOpenWorld + " open-world  " + markImplied + " hints implied"
	shorter := []string{
		markIdempotent + " idempotent " + markOpenWorld + " open-world " + markImplied + " implied",
		markIdempotent + " idem " + markOpenWorld + " open-world " + markImplied + " implied",
	}
	if l.conflicts {
		legendText += "  " + markConflict + " conflicting hints"
		shorter = []string{shorter[0] + " " + markConflict + " conflict", shorter[1] + " " + markConflict + " conflict",
			markIdempotent + " idem " + markOpenWorld + " open " + markImplied + " impl " + markConflict + " conflict"}
	}
	for _, shorter := range shorter {
		if ansi.StringWidth(legendText) > width {
			legendText = shorter
		}
	}
	legend := st.Muted.Render(termtext.Truncate(legendText, width))
	body := height - 1
	if body < 1 {
		body, legend = height, ""
	}
	// Keep the cursor on screen, and its section heading when it fits.
	if l.cursor >= 0 {
		if l.cursor < l.offset {
			l.offset = l.cursor
			if l.offset > 0 && l.rows[l.offset-1].isHeading() {
				l.offset--
			}
		}
		if l.cursor >= l.offset+body {
			l.offset = l.cursor - body + 1
		}
	}
	l.offset = max(0, min(l.offset, len(l.rows)-body))
	var b strings.Builder
	n := 0
	for i := l.offset; i < len(l.rows) && n < body; i++ {
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.renderRow(st, i, width))
		n++
	}
	for ; n < body; n++ {
		if n > 0 {
			b.WriteByte('\n')
		}
	}
	if legend != "" {
		b.WriteString("\n" + legend)
	}
	return b.String()
}

var classHeadings = map[policy.Class]string{
	policy.ClassReadOnly:    "Read-only",
	policy.ClassWrite:       "Write",
	policy.ClassDestructive: "Destructive",
}

func (l *toolList) renderRow(st *Styles, i, width int) string {
	r := l.rows[i]
	if r.isHeading() {
		return st.Section[r.heading].Render(termtext.Truncate(fmt.Sprintf("%s (%d)", classHeadings[r.heading], l.counts[r.heading]), width))
	}
	t := l.tools[r.tool]
	marks := rowMarks(t)
	markW := 3
	cursor := "  "
	style := st.Row
	if i == l.cursor {
		cursor, style = "› ", st.RowSelected
	}
	room := width - len(cursor) - markW - 1
	title := l.title[r.tool]
	name := ""
	if t.Title != t.Name {
		name = l.name[r.tool]
	}
	titleW := ansi.StringWidth(title)
	if titleW > room {
		title, name = termtext.Truncate(title, room), ""
	} else if name != "" && ansi.StringWidth(name) > room-titleW-2 {
		name = "" // a name cut short says less than none; the detail pane has it whole
	}
	text := cursor + title
	if name != "" {
		text += "  " + st.Name.Render(name)
	}
	gap := width - markW - ansi.StringWidth(text)
	line := text + strings.Repeat(" ", max(gap, 1)) + l.renderMarks(st, marks)
	if i == l.cursor {
		return style.Render(ansi.Strip(cursor+title) + nameSuffix(name) + strings.Repeat(" ", max(gap, 1)) + marks.plain())
	}
	return line
}

func nameSuffix(name string) string {
	if name == "" {
		return ""
	}
	return "  " + name
}

type marks struct{ idempotent, openWorld, implied, conflict bool }

func rowMarks(t *client.Tool) marks {
	e := t.Effective()
	return marks{
		idempotent: !e.ReadOnly && e.Idempotent,
		openWorld:  e.OpenWorld,
		implied:    len(t.Hints.Implied()) > 0,
		conflict:   t.Hints.Conflict(),
	}
}

// plain renders the marks without styles, for the selected row's own style.
func (m marks) plain() string {
	last := pick(m.implied, markImplied)
	if m.conflict {
		last = markConflict
	}
	return pick(m.idempotent, markIdempotent) + pick(m.openWorld, markOpenWorld) + last
}

func (l *toolList) renderMarks(st *Styles, m marks) string {
	out := ""
	out += pick(m.idempotent, st.Mark.Render(markIdempotent))
	out += pick(m.openWorld, st.MarkOpenWorld.Render(markOpenWorld))
	if m.conflict {
		return out + st.Error.Render(markConflict)
	}
	out += pick(m.implied, st.MarkImplied.Render(markImplied))
	return out
}

func pick(on bool, s string) string {
	if on {
		return s
	}
	return " "
}
