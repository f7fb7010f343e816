// Package markdown is a small Markdown renderer for resources of type text/markdown: headings,
// paragraphs, emphasis, code spans and fences, lists, quotes, rules, links
// and tables, drawn with the view's styles in at most width cells a line.
//
// Not glamour: glamour v2 builds with our lipgloss, but the packages it
// brings (chroma's lexers and styles, bluemonday) take about 20 ms in their
// init functions, which every mcpsh command would pay at start, batch
// commands included, for one kind of resource in one view. What resources
// need is readable text at the terminal's width, which this gives.
//
// The input is already made safe (termtext.Sanitize): this only adds mcpsh's
// own styling around it.
package markdown

import (
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

type mdRenderer struct {
	st  *style.Styles
	out []string
}

// mdRegexps are the block patterns, compiled on first use rather than at
// start-up: most runs never draw Markdown.
type mdRegexps struct {
	heading, fence, rule, quote, item, setext1, setext2, tableSep *regexp.Regexp
}

var mdRe = sync.OnceValue(func() *mdRegexps {
	return &mdRegexps{
		heading:  regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`),
		fence:    regexp.MustCompile("^( {0,3})(`{3,}|~{3,})(.*)$"),
		rule:     regexp.MustCompile(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`),
		quote:    regexp.MustCompile(`^ {0,3}> ?(.*)$`),
		item:     regexp.MustCompile(`^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$`),
		setext1:  regexp.MustCompile(`^ {0,3}=+[ \t]*$`),
		setext2:  regexp.MustCompile(`^ {0,3}-+[ \t]*$`),
		tableSep: regexp.MustCompile(`^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$`),
	}
})

// Render draws src, which must be sanitized, in lines of at most width cells.
func Render(src string, width int, st *style.Styles) []string {
	r := &mdRenderer{st: st}
	r.blocks(strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n"), max(width, 1), "")
	for len(r.out) > 0 && r.out[len(r.out)-1] == "" {
		r.out = r.out[:len(r.out)-1]
	}
	// A quote's bars come on top of the width its text was given.
	for i, l := range r.out {
		r.out[i] = termtext.Truncate(l, max(width, 1))
	}
	return r.out
}

// gap puts one blank line between blocks: none at the start, none after a
// blank one (a quote's bars alone count as blank).
func (r *mdRenderer) gap(prefix string) {
	if len(r.out) == 0 || strings.Trim(ansi.Strip(r.out[len(r.out)-1]), "│ ") == "" {
		return
	}
	r.out = append(r.out, prefix)
}

func (r *mdRenderer) emit(prefix string, ls ...string) {
	for _, l := range ls {
		r.out = append(r.out, prefix+l)
	}
}

// blocks draws lines as blocks, each drawn line starting with prefix (a
// quote's bar) and fitting in width cells after it.
func (r *mdRenderer) blocks(lines []string, width int, prefix string) {
	re := mdRe()
	var para []string
	flush := func() {
		if len(para) > 0 {
			r.gap(prefix)
			r.emit(prefix, r.inline(strings.Join(para, "\n"), width, "", "")...)
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := layout.ExpandTabs(lines[i])
		switch {
		case strings.TrimSpace(line) == "":
			flush()
		case len(para) > 0 && re.setext1.MatchString(line):
			r.heading(1, strings.Join(para, " "), width, prefix)
			para = nil
		case len(para) > 0 && re.setext2.MatchString(line):
			r.heading(2, strings.Join(para, " "), width, prefix)
			para = nil
		case re.rule.MatchString(line):
			flush()
			r.gap(prefix)
			r.emit(prefix, r.st.Muted.Render(strings.Repeat("─", width)))
		case re.heading.MatchString(line):
			flush()
			m := re.heading.FindStringSubmatch(line)
			r.heading(len(m[1]), m[2], width, prefix)
		case re.fence.MatchString(line):
			flush()
			i = r.fence(lines, i, width, prefix)
		case re.quote.MatchString(line):
			flush()
			var inner []string
			for ; i < len(lines) && re.quote.MatchString(lines[i]); i++ {
				inner = append(inner, re.quote.FindStringSubmatch(lines[i])[1])
			}
			i--
			r.gap(prefix)
			r.blocks(inner, max(width-2, 1), prefix+r.st.Quote.Render("│ "))
		case re.item.MatchString(line) && (len(para) == 0 || !strings.HasPrefix(line, " ")):
			flush()
			i = r.list(lines, i, width, prefix)
		case len(para) == 0 && strings.HasPrefix(line, "    "):
			var code []string
			for ; i < len(lines) && (strings.HasPrefix(layout.ExpandTabs(lines[i]), "    ") || strings.TrimSpace(lines[i]) == ""); i++ {
				code = append(code, strings.TrimPrefix(layout.ExpandTabs(lines[i]), "    "))
			}
			i--
			for len(code) > 0 && strings.TrimSpace(code[len(code)-1]) == "" {
				code = code[:len(code)-1]
			}
			r.code(code, width, prefix)
		case strings.Contains(line, "|") && i+1 < len(lines) && re.tableSep.MatchString(lines[i+1]) && strings.Contains(lines[i+1], "-"):
			flush()
			i = r.table(lines, i, width, prefix)
		default:
			para = append(para, strings.TrimLeft(line, " "))
		}
	}
	flush()
}

func (r *mdRenderer) heading(level int, text string, width int, prefix string) {
	r.gap(prefix)
	style := r.st.Heading
	if level == 1 {
		style = r.st.Heading1
	}
	lead := ""
	if level > 2 {
		lead = strings.Repeat("#", level) + " "
	}
	for _, l := range r.inline(strings.TrimSpace(text), width, lead, "") {
		r.emit(prefix, style.Render(ansi.Strip(l)))
	}
}

// fence draws a fenced code block starting at lines[i] and returns the index
// of its last line.
func (r *mdRenderer) fence(lines []string, i, width int, prefix string) int {
	re := mdRe()
	m := re.fence.FindStringSubmatch(lines[i])
	indent, marker := len(m[1]), m[2]
	var code []string
	j := i + 1
	for ; j < len(lines); j++ {
		t := strings.TrimLeft(lines[j], " ")
		if strings.HasPrefix(t, marker[:3]) && strings.Trim(t, marker[:1]+" \t") == "" && len(strings.TrimRight(t, " \t")) >= len(marker) {
			break
		}
		l := layout.ExpandTabs(lines[j])
		for k := 0; k < indent && strings.HasPrefix(l, " "); k++ {
			l = l[1:]
		}
		code = append(code, l)
	}
	r.code(code, width, prefix)
	return min(j, len(lines)-1)
}

// code draws code lines indented, wrapped rather than cut: code must not lose
// characters.
func (r *mdRenderer) code(code []string, width int, prefix string) {
	r.gap(prefix)
	for _, l := range code {
		for _, sub := range layout.Wrap(l, max(width-2, 1)) {
			r.emit(prefix, "  "+r.st.Code.Render(sub))
		}
	}
}

// list draws the list starting at lines[i] (items and their continuation
// lines, nested by indentation) and returns the index of its last line.
func (r *mdRenderer) list(lines []string, i, width int, prefix string) int {
	re := mdRe()
	r.gap(prefix)
	type item struct {
		indent int
		marker string
		text   []string
	}
	var items []item
	for ; i < len(lines); i++ {
		line := layout.ExpandTabs(lines[i])
		if strings.TrimSpace(line) == "" {
			if i+1 < len(lines) && re.item.MatchString(layout.ExpandTabs(lines[i+1])) {
				continue
			}
			break
		}
		if m := re.item.FindStringSubmatch(line); m != nil && !re.rule.MatchString(line) {
			items = append(items, item{indent: len(m[1]), marker: m[2], text: []string{m[3]}})
			continue
		}
		if re.heading.MatchString(line) || re.fence.MatchString(line) || re.quote.MatchString(line) {
			break
		}
		last := &items[len(items)-1]
		last.text = append(last.text, strings.TrimSpace(line))
	}
	// Nesting: each distinct indentation deeper than the one before is a level.
	var levels []int
	for _, it := range items {
		for len(levels) > 0 && levels[len(levels)-1] > it.indent {
			levels = levels[:len(levels)-1]
		}
		if len(levels) == 0 || levels[len(levels)-1] < it.indent {
			levels = append(levels, it.indent)
		}
		depth := min(len(levels)-1, 4)
		bullet := "•"
		if strings.ContainsAny(it.marker[len(it.marker)-1:], ".)") {
			bullet = it.marker
		}
		pad := strings.Repeat("  ", depth)
		lead := pad + bullet + " "
		hang := strings.Repeat(" ", ansi.StringWidth(lead))
		r.emit(prefix, r.inline(strings.Join(it.text, "\n"), width, lead, hang)...)
	}
	return i - 1
}

// table draws a pipe table starting at lines[i], its columns as wide as
// their widest cell, each line cut to the width; it returns the index of its
// last line.
func (r *mdRenderer) table(lines []string, i, width int, prefix string) int {
	r.gap(prefix)
	cells := func(l string) []string {
		l = strings.TrimSpace(l)
		l = strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
		parts := strings.Split(l, "|")
		for k, p := range parts {
			parts[k] = ansi.Strip(strings.Join(r.inline(strings.TrimSpace(p), 1<<20, "", ""), " "))
		}
		return parts
	}
	rows := [][]string{cells(lines[i])}
	j := i + 2
	for ; j < len(lines) && strings.Contains(lines[j], "|") && strings.TrimSpace(lines[j]) != ""; j++ {
		rows = append(rows, cells(lines[j]))
	}
	var widths []int
	for _, row := range rows {
		for k, c := range row {
			if k >= len(widths) {
				widths = append(widths, 0)
			}
			widths[k] = max(widths[k], ansi.StringWidth(c))
		}
	}
	sep := r.st.Muted.Render(" │ ")
	for n, row := range rows {
		var parts []string
		for k := range widths {
			c := ""
			if k < len(row) {
				c = row[k]
			}
			parts = append(parts, termtext.Pad(c, widths[k]))
		}
		line := strings.Join(parts, sep)
		if n == 0 {
			line = r.st.Strong.Render(strings.Join(parts, " │ "))
		}
		r.emit(prefix, termtext.Truncate(line, width))
		if n == 0 {
			var rule []string
			for _, w := range widths {
				rule = append(rule, strings.Repeat("─", w))
			}
			r.emit(prefix, r.st.Muted.Render(termtext.Truncate(strings.Join(rule, "─┼─"), width)))
		}
	}
	return j - 1
}
