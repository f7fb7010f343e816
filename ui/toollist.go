package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/fuzzy"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// toolList is the left pane: the server's tools grouped by safety class, with
// a filter. It renders only the rows on screen, so it stays quick with
// thousands of tools; filtering is one pass over lower-cased text prepared
// once per listing, with no allocation per tool.
type toolList struct {
	tools []*client.Tool
	// hay[i] is tools[i]'s title, name and description, lower-cased and
	// joined by NULs; titleLen[i] and nameLen[i] say where the parts end.
	hay               []string
	titleLen, nameLen []int32
	// title[i] and name[i] are tools[i]'s title and name, safe to draw.
	title, name []string
	facets      []facet
	// deny holds the deny rule that blocks a tool, by index into tools; most
	// sessions have no rules, and it is empty.
	deny  map[int]string
	judge toolJudge

	// conflicts: some tool declares readOnlyHint and destructiveHint both true,
	// so the legend explains its mark.
	conflicts bool
	// need is the width the widest row asks for, for the pane's width.
	need int

	filter  string
	query   listQuery
	rows    []listRow // section headings and the tools that pass the filter
	counts  map[policy.Class]int
	visible int
	cursor  int // index into rows; always a tool row when there is one
	offset  int // first row on screen
	// buckets are reused from one filter to the next: a keystroke with
	// 10,000 tools allocates nothing per tool.
	buckets [3][]scoredTool
}

// toolJudge tells the list what the session decided about tools: which the
// user allowed, and which a deny rule blocks. The model is one.
type toolJudge interface {
	sessionAllowed(t *client.Tool) bool
	denyRule(t *client.Tool) string
}

type listRow struct {
	heading policy.Class // set on a section heading
	tool    int          // index into tools, for a tool row
}

type scoredTool struct{ tool, score int }

func (r listRow) isHeading() bool { return r.heading != "" }

// SetJudge gives the list the session's allowances and rules.
func (l *toolList) SetJudge(j toolJudge) {
	l.judge = j
	l.judgeAll()
	l.rebuild(l.selectedName(), false)
}

// judgeAll works out which tools a deny rule blocks: once per listing, since
// the rules do not change during a session.
func (l *toolList) judgeAll() {
	l.deny = map[int]string{}
	for i, t := range l.tools {
		if l.judge != nil {
			if r := l.judge.denyRule(t); r != "" {
				l.deny[i] = r
			}
		}
		l.facets[i] = facetsOf(t, l.deny[i] != "")
	}
}

// SetTools replaces the listing, keeping the selection on the same tool name
// when it is still there (tools/list_changed must not lose the user's place).
func (l *toolList) SetTools(tools []*client.Tool) {
	keep := l.selectedName()
	n := len(tools)
	l.tools = tools
	l.hay, l.titleLen, l.nameLen = make([]string, n), make([]int32, n), make([]int32, n)
	l.title, l.name = make([]string, n), make([]string, n)
	l.facets = make([]facet, n)
	l.conflicts, l.need = false, 0
	for i, t := range tools {
		l.conflicts = l.conflicts || t.Hints.Conflict()
		l.title[i] = termtext.Line(t.Title)
		l.name[i] = termtext.Line(t.Name)
		title, name := strings.ToLower(t.Title), strings.ToLower(t.Name)
		l.hay[i] = title + "\x00" + name + "\x00" + strings.ToLower(t.Description)
		l.titleLen[i], l.nameLen[i] = int32(len(title)), int32(len(name))
		l.need = max(l.need, l.rowNeed(i))
	}
	l.judgeAll()
	l.rebuild(keep, false)
}

// rowNeed is the width row i takes uncut: cursor, title, name, marks.
func (l *toolList) rowNeed(i int) int {
	w := 2 + cellWidth(l.title[i]) + 1 + markW
	if l.tools[i].Title != l.tools[i].Name {
		w += 2 + cellWidth(l.name[i])
	}
	return w
}

// cellWidth is ansi.StringWidth with a fast path for printable ASCII, one
// cell a byte: measuring graphemes costs more than the rest of a listing.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// PaneWidth is how wide the list is in a body total cells wide: the whole
// width below 64 columns (the detail pane is hidden there); else what its
// widest row needs, at least three tenths of the body (and 28 cells) and at
// most two fifths, or more while the detail keeps detailRoom cells, up to
// half: a wide body (160 columns less the server sidebar) shows long titles
// whole.
func (l *toolList) PaneWidth(total int) int {
	if total < 64 {
		return total
	}
	lo := max(total*3/10, 28)
	hi := max(total*2/5, 28, min(total-detailRoom-3, total/2))
	return min(max(l.need, lo), hi)
}

// detailRoom is the least the detail pane keeps when the list takes more
// than two fifths of the body.
const detailRoom = 60

func (l *toolList) selectedName() string {
	if t := l.Selected(); t != nil {
		return t.Name
	}
	return ""
}

// SetFilter shows only the tools that match f (see listQuery), ranked by how
// well they match within each safety group. While words are typed the cursor
// goes to the best match; otherwise it stays on its tool when it can.
func (l *toolList) SetFilter(f string) {
	if f == l.filter {
		return
	}
	keep := l.selectedName()
	l.filter = f
	l.query = parseQuery(f)
	l.rebuild(keep, len(l.query.words) > 0)
}

// Refilter runs the filter again, after allowances changed.
func (l *toolList) Refilter() { l.rebuild(l.selectedName(), false) }

func (l *toolList) rebuild(keep string, toBest bool) {
	q := l.query
	allowedAsked := q.wants(facetAllowed) && l.judge != nil
	for c := range l.buckets {
		l.buckets[c] = l.buckets[c][:0]
	}
	all := l.tools
	if len(q.unknown) > 0 {
		all = nil // an is: that names nothing finds nothing
	}
tools:
	for i, t := range all {
		f := l.facets[i]
		if allowedAsked && l.judge.sessionAllowed(t) {
			f |= facetAllowed
		}
		for _, want := range q.is {
			if f&want == 0 {
				continue tools
			}
		}
		score := 0
		hay, tl := l.hay[i], int(l.titleLen[i])
		for _, w := range q.words {
			s := fuzzy.WordScore(w, hay, hay[tl+1:tl+1+int(l.nameLen[i])], hay[:tl])
			if s == 0 {
				continue tools
			}
			score += s
		}
		c := classIndex(f)
		l.buckets[c] = append(l.buckets[c], scoredTool{tool: i, score: score})
	}
	filtering := !q.empty()
	best, bestScore := -1, 0 // the best match, the first in row order on a tie
	l.rows = l.rows[:0]
	l.counts = map[policy.Class]int{}
	l.visible = 0
	for c, class := range policy.Classes {
		b := l.buckets[c]
		l.counts[class] = len(b)
		l.visible += len(b)
		if filtering && len(b) == 0 {
			continue // a group with no match is hidden while filtering
		}
		if len(q.words) > 0 {
			slices.SortStableFunc(b, func(x, y scoredTool) int { return y.score - x.score })
			if len(b) > 0 && b[0].score > bestScore {
				best, bestScore = b[0].tool, b[0].score
			}
		}
		l.rows = append(l.rows, listRow{heading: class})
		for _, s := range b {
			l.rows = append(l.rows, listRow{tool: s.tool})
		}
	}
	if toBest && best >= 0 {
		keep = l.tools[best].Name
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

// firstTool finds the nearest tool row from i in direction dir, or -1.
func (l *toolList) firstTool(i, dir int) int { return scroll.Nearest(i, dir, len(l.rows), l.isTool) }

func (l *toolList) isTool(i int) bool    { return !l.rows[i].isHeading() }
func (l *toolList) isHeading(i int) bool { return l.rows[i].isHeading() }

// Selected is the tool under the cursor, or nil when none passes the filter.
func (l *toolList) Selected() *client.Tool {
	if l.cursor < 0 || l.cursor >= len(l.rows) || l.rows[l.cursor].isHeading() {
		return nil
	}
	return l.tools[l.rows[l.cursor].tool]
}

// Visible is how many tools pass the filter.
func (l *toolList) Visible() int { return l.visible }

// Move moves the cursor by n tools, skipping headings and stopping at the ends.
func (l *toolList) Move(n int) { l.cursor = scroll.Step(l.cursor, n, len(l.rows), l.isTool) }

// Top and Bottom jump to the first and last tool.
func (l *toolList) Top()    { l.cursor = l.firstTool(0, 1) }
func (l *toolList) Bottom() { l.cursor = l.firstTool(len(l.rows)-1, -1) }

// Layout scrolls the list for a pane of width×height cells so the cursor is
// in view. Update calls it (Model.prepareFrame) after anything that moves
// the cursor, the rows or the pane; View draws from where it left the list.
func (l *toolList) Layout(width, height int) {
	if height > 0 && width > 0 {
		l.offset, _, _ = l.frame(width, height)
	}
}

// frame is what View draws in height rows: the first row, how many rows
// there are room for, and the legend under them.
func (l *toolList) frame(width, height int) (off, body int, legend []string) {
	// The legend explains the marks on screen, so it is worked out from the
	// rows that would show with a one-line legend; on the rare pane where
	// it then needs two, one row fewer shows.
	body = height - 1
	if body < 1 {
		body = height
	}
	legend = l.legend(l.seenMarks(l.scrollFor(body), body), width)
	if len(legend) > 1 && height-len(legend) >= 1 {
		body = height - len(legend)
	}
	if body == height {
		legend = nil
	}
	return l.scrollFor(body), body, legend
}

// View renders height lines of at most width cells.
func (l *toolList) View(st *style.Styles, width, height int) string {
	if height <= 0 || width <= 0 {
		return ""
	}
	if l.visible == 0 && !l.query.empty() {
		return strings.Join(layout.FitLines(strings.Join(l.noMatch(st, width), "\n"), width, height), "\n")
	}
	off, body, legend := l.frame(width, height)
	var b strings.Builder
	n := 0
	for i := off; i < len(l.rows) && n < body; i++ {
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
	for _, line := range legend {
		b.WriteString("\n" + st.Muted.Render(line))
	}
	return b.String()
}

// noMatch is what the list says when nothing passes the filter, with the
// is: words it knows when the user typed one it does not.
func (l *toolList) noMatch(st *style.Styles, width int) []string {
	w := &layout.Lines{Width: width}
	w.Add(st.Muted.Render("no tool matches"))
	if len(l.query.unknown) > 0 {
		var known []string
		for _, f := range isFilters {
			known = append(known, "is:"+f.word)
		}
		w.Blank()
		w.Wrap("is:"+termtext.Line(l.query.unknown[0])+" names nothing; try "+strings.Join(known, ", "), st.Warning)
	}
	return w.Out
}

var classHeadings = map[policy.Class]string{
	policy.ClassReadOnly:    "Read-only",
	policy.ClassWrite:       "Write",
	policy.ClassDestructive: "Destructive",
}

// minTitle is the fewest cells a cut title keeps beside the name; with less
// room the row shows the name alone, which is what a call needs.
const minTitle = 8

// rowMarksAt are the marks of tool row r, the session's included.
func (l *toolList) rowMarksAt(r listRow) marks {
	t := l.tools[r.tool]
	mk := rowMarks(t)
	mk.denied = l.deny[r.tool] != ""
	mk.allowed = !mk.denied && l.judge != nil && l.judge.sessionAllowed(t)
	return mk
}

// scrollFor is the first row on screen for a body of n rows: the cursor
// stays on screen, with its section heading when it fits.
func (l *toolList) scrollFor(n int) int {
	return scroll.Window(l.offset, l.cursor, n, len(l.rows), l.isHeading)
}

// seenMarks says whether the n rows from row from have allowed or denied marks.
func (l *toolList) seenMarks(from, n int) marks {
	var seen marks
	for i := from; i < len(l.rows) && i < from+n; i++ {
		if !l.rows[i].isHeading() {
			mk := l.rowMarksAt(l.rows[i])
			seen.allowed, seen.denied = seen.allowed || mk.allowed, seen.denied || mk.denied
		}
	}
	return seen
}

func (l *toolList) renderRow(st *style.Styles, i, width int) string {
	r := l.rows[i]
	if r.isHeading() {
		return st.Section[r.heading].Render(termtext.Truncate(fmt.Sprintf("%s (%d)", classHeadings[r.heading], l.counts[r.heading]), width))
	}
	t := l.tools[r.tool]
	mk := l.rowMarksAt(r)
	cursor := "  "
	if i == l.cursor {
		cursor = "› "
	}
	room := width - ansi.StringWidth(cursor) - markW - 1
	title, name := l.title[r.tool], ""
	if t.Title != t.Name {
		name = l.name[r.tool]
	}
	switch nw := ansi.StringWidth(name); {
	case name == "":
		title = termtext.Truncate(title, room)
	case nw+2+minTitle > room && ansi.StringWidth(title)+2+nw > room:
		// No room for both: the name, which is what calls use, stays.
		title, name = "", termtext.Truncate(name, room)
	default:
		title = termtext.Truncate(title, room-nw-2)
	}
	gap := strings.Repeat(" ", max(width-markW-ansi.StringWidth(cursor+title+nameSep(title, name)+name), 1))
	if i == l.cursor {
		return st.RowSelected.Render(cursor + title + nameSep(title, name) + name + gap + mk.plain())
	}
	return cursor + title + nameSep(title, name) + st.Name.Render(name) + gap + mk.render(st)
}

func nameSep(title, name string) string {
	if title == "" || name == "" {
		return ""
	}
	return "  "
}
