package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// Inline Markdown (markdown.go draws the blocks): styled runs of text,
// wrapped word by word so that a style never breaks across lines.

type mdStyle uint8

const (
	mdStrong mdStyle = 1 << iota
	mdEmph
	mdCode
	mdLink
	mdMuted
)

// mdSeg is a run of text in one style; a word is one or more of them.
type mdSeg struct {
	text  string
	style mdStyle
}

func (r *mdRenderer) styleOf(s mdStyle) lipgloss.Style {
	switch {
	case s&mdCode != 0:
		return r.st.Code
	case s&mdLink != 0:
		return r.st.Link
	case s&mdMuted != 0:
		return r.st.Muted
	case s&mdStrong != 0:
		return r.st.Strong
	case s&mdEmph != 0:
		return r.st.Emphasis
	}
	return r.st.Row
}

// inline draws text (lines of one block, joined by newlines) wrapped to
// width: the first line starts with lead, the others with hang. A line
// ending in two spaces or a backslash breaks there; other newlines are spaces.
func (r *mdRenderer) inline(text string, width int, lead, hang string) []string {
	var words [][]mdSeg
	var word []mdSeg
	breakAfter := map[int]bool{}
	endWord := func() {
		if len(word) > 0 {
			words = append(words, word)
			word = nil
		}
	}
	add := func(s string, style mdStyle) {
		for s != "" {
			i := strings.IndexAny(s, " \t")
			if i < 0 {
				word = append(word, mdSeg{s, style})
				return
			}
			if i > 0 {
				word = append(word, mdSeg{s[:i], style})
			}
			endWord()
			s = s[i+1:]
		}
	}
	srcLines := strings.Split(text, "\n")
	for n, l := range srcLines {
		hard := n < len(srcLines)-1 && (strings.HasSuffix(l, "  ") || strings.HasSuffix(l, "\\"))
		if hard {
			l = strings.TrimSuffix(strings.TrimRight(l, " "), "\\")
		}
		for _, seg := range parseInline(l) {
			add(seg.text, seg.style)
		}
		endWord()
		if hard {
			breakAfter[len(words)] = true
		}
	}
	return r.wrapWords(words, breakAfter, width, lead, hang)
}

func (r *mdRenderer) wrapWords(words [][]mdSeg, breakAfter map[int]bool, width int, lead, hang string) []string {
	var out []string
	line, lineW := lead, ansi.StringWidth(lead)
	fresh := true // nothing on the line yet but its lead
	newLine := func() {
		out = append(out, line)
		line, lineW, fresh = hang, ansi.StringWidth(hang), true
	}
	for n, w := range words {
		ww := 0
		for _, s := range w {
			ww += ansi.StringWidth(s.text)
		}
		if !fresh && lineW+1+ww > width {
			newLine()
		}
		if !fresh {
			line += " "
			lineW++
		}
		for _, s := range w {
			text := s.text
			for text != "" {
				room := width - lineW
				if room <= 0 {
					newLine()
					room = max(width-lineW, 1)
				}
				part := ansi.Truncate(text, room, "")
				if part == "" { // a character wider than the room left
					_, size := utf8.DecodeRuneInString(text)
					part = text[:size]
				}
				line += r.styleOf(s.style).Render(part)
				lineW += ansi.StringWidth(part)
				text = text[len(part):]
				fresh = false
			}
		}
		if breakAfter[n+1] {
			newLine()
		}
	}
	if !fresh || len(out) == 0 {
		out = append(out, line)
	}
	for i, l := range out {
		out[i] = termtext.Truncate(l, width)
	}
	return out
}

// parseInline splits one line into styled runs: `code`, **strong**,
// *emphasis* (and the underscore forms at word edges), [links](url),
// ![images](src), <autolinks> and backslash escapes. Markers without a
// partner are text.
func parseInline(s string) []mdSeg {
	var out []mdSeg
	var cur strings.Builder
	var style mdStyle
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, mdSeg{cur.String(), style})
			cur.Reset()
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!<>|~", s[i+1]) >= 0:
			cur.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			ticks := s[i : i+n]
			if end := strings.Index(s[i+n:], ticks); end >= 0 {
				flush()
				code := s[i+n : i+n+end]
				if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' {
					code = code[1 : len(code)-1]
				}
				out = append(out, mdSeg{code, style | mdCode})
				i += n + end + n
				continue
			}
			cur.WriteString(ticks)
			i += n
			continue
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			if text, url, n, ok := mdLinkAt(s[i+1:]); ok {
				flush()
				out = append(out, mdSeg{"[image: " + text + "]", style | mdMuted})
				if url != "" {
					out = append(out, mdSeg{" (" + url + ")", style | mdMuted})
				}
				i += 1 + n
				continue
			}
		case c == '[':
			if text, url, n, ok := mdLinkAt(s[i:]); ok {
				flush()
				for _, seg := range parseInline(text) {
					out = append(out, mdSeg{seg.text, seg.style | style | mdLink})
				}
				if url != "" && url != text {
					out = append(out, mdSeg{" (" + url + ")", style | mdMuted})
				}
				i += n
				continue
			}
		case c == '<':
			if end := strings.IndexByte(s[i:], '>'); end > 1 {
				inner := s[i+1 : i+end]
				if (strings.HasPrefix(inner, "http://") || strings.HasPrefix(inner, "https://") || strings.HasPrefix(inner, "mailto:")) && !strings.ContainsAny(inner, " <") {
					flush()
					out = append(out, mdSeg{inner, style | mdLink})
					i += end + 1
					continue
				}
			}
		case c == '*' || c == '_':
			n := 1
			if i+1 < len(s) && s[i+1] == c {
				n = 2
			}
			marker, bit := s[i:i+n], mdEmph
			if n == 2 {
				bit = mdStrong
			}
			if c == '_' && !mdUnderscoreEdge(s, i, n) {
				break
			}
			if style&bit != 0 {
				flush()
				style &^= bit
				i += n
				continue
			}
			rest := s[i+n:]
			if rest != "" && rest[0] != ' ' && mdCloses(rest, marker) {
				flush()
				style |= bit
				i += n
				continue
			}
		}
		cur.WriteByte(c)
		i++
	}
	flush()
	return out
}

// mdCloses reports whether marker closes later in s, after a non-space.
func mdCloses(s, marker string) bool {
	for k := 1; k < len(s); k++ {
		if strings.HasPrefix(s[k:], marker) && s[k-1] != ' ' {
			if len(marker) == 1 && k+1 < len(s) && s[k+1] == marker[0] {
				k++ // part of a double marker
				continue
			}
			return true
		}
	}
	return false
}

// mdUnderscoreEdge: an underscore emphasises only at a word's edge, so
// snake_case_names stay as they are.
func mdUnderscoreEdge(s string, i, n int) bool {
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+n:])
	return i == 0 || !word(before) || i+n >= len(s) || !word(after)
}

// mdLinkAt reads [text](url "title") at the start of s; n is its length.
func mdLinkAt(s string) (text, url string, n int, ok bool) {
	depth := 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				if k+1 >= len(s) || s[k+1] != '(' {
					return "", "", 0, false
				}
				end := strings.IndexByte(s[k+2:], ')')
				if end < 0 {
					return "", "", 0, false
				}
				dest := strings.TrimSpace(s[k+2 : k+2+end])
				if sp := strings.IndexAny(dest, " \t"); sp >= 0 {
					dest = dest[:sp] // drop the title
				}
				return s[1:k], strings.Trim(dest, "<>"), k + 3 + end, true
			}
		}
	}
	return "", "", 0, false
}
