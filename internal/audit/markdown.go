package audit

import (
	"strings"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// Server text in the Markdown report is inert: a reviewer pastes the report
// into a pull request, where a link, an image or HTML from a server would
// be live, and a "|" would break the table. Every server string goes
// through mdInert (md, mdLine, mdCode): on one line; each ASCII punctuation
// character escaped with a backslash, which CommonMark reads as that
// character and nothing more (links, images, emphasis, code, HTML,
// entities, headings and lists at a line's start, table cells, math);
// and a word GitHub would link by itself, which escapes do not stop (a
// URL, a www. address, an e-mail address or @mention, an emoji code, an
// issue reference), in a code span, inside which nothing is read.

// md is server text in a table cell.
func md(s string) string { return mdInert(s, true, false) }

// mdLine is server text in a line of the report: a heading or a list item.
func mdLine(s string) string { return mdInert(s, false, false) }

// mdCode is server text as code (a tool's name), in a table cell when cell.
func mdCode(s string, cell bool) string { return mdInert(s, cell, true) }

// mdInert makes s inert Markdown: as text, or as one code span when code.
// In a table cell, a "|" is escaped even inside a code span (GFM splits
// cells before it reads code).
func mdInert(s string, cell, code bool) string {
	s = strings.Join(strings.Fields(termtext.Line(s)), " ")
	if code {
		return codeSpan(s, cell)
	}
	words := strings.Split(s, " ")
	for i, w := range words {
		if linksItself(w) {
			words[i] = codeSpan(w, cell)
			continue
		}
		var b strings.Builder
		for _, r := range w {
			if r < 0x80 && strings.ContainsRune(mdPunct, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		words[i] = b.String()
	}
	return strings.Join(words, " ")
}

// mdPunct are the ASCII punctuation characters, each of which CommonMark
// lets a backslash escape.
const mdPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// linksItself reports a word GitHub may turn into a link, a mention or an
// emoji however it is escaped: a URL, a www. address, an e-mail address or
// @mention, a mailto: or xmpp: address, an emoji code (:name:), an issue
// reference (#12).
func linksItself(w string) bool {
	l := strings.ToLower(w)
	switch {
	case strings.Contains(l, "://"), strings.Contains(l, "www."), strings.Contains(l, "@"),
		strings.Contains(l, "mailto:"), strings.Contains(l, "xmpp:"):
		return true
	}
	if i := strings.IndexByte(l, ':'); i >= 0 && strings.Contains(l[i+1:], ":") {
		return true
	}
	i := strings.IndexByte(l, '#')
	return i >= 0 && i+1 < len(l) && l[i+1] >= '0' && l[i+1] <= '9'
}

// codeSpan is s as one code span: fenced by one more backtick than its
// longest run of them, padded when it starts or ends with one.
func codeSpan(s string, cell bool) string {
	if s == "" {
		return ""
	}
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	if cell && strings.Contains(s, "|") {
		s = escapePipes(s)
	}
	fence := strings.Repeat("`", longest+1)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// escapePipes escapes each "|" of a code span in a table cell, which GFM
// splits cells at even there: with a backslash, and one more where the
// backslashes already before it would make theirs an even run, which some
// renderers read as escaping one another and not the pipe (the span then
// shows one more backslash than the server sent).
func escapePipes(s string) string {
	var b strings.Builder
	run := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			run++
		case '|':
			if run%2 == 1 {
				b.WriteByte('\\')
			}
			b.WriteByte('\\')
			run = 0
		default:
			run = 0
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
