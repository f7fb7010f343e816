package audit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
)

// A server whose tool names, titles and descriptions are Markdown — links,
// images, autolinks, HTML, entities, emphasis, code, headings and lists
// after newlines, table rows and pipes, mentions, issue references, emoji
// codes and math (testdata/markdown-injection.json, served raw) — gets a
// Markdown report in which all of it is inert: no link, image, HTML, entity
// or emphasis from it is live, no line it is on starts a heading, list or
// quote, and every table row has its table's number of cells.
func TestMarkdownReportKeepsServerTextInert(t *testing.T) {
	tools := listFixture(t, "markdown-injection.json")
	var b bytes.Buffer
	New("evil [srv](https://evil.example) <b>", "stdio: <i>x</i>", policy.Trusted, tools).WriteMarkdown(&b)
	md := b.String()
	cells := -1
	for i, l := range strings.Split(md, "\n") {
		if l == "" {
			cells = -1 // a table ends at a blank line
			continue
		}
		if strings.HasPrefix(l, "|") {
			n := tableCells(l)
			if cells < 0 {
				cells = n
			}
			if n != cells || !strings.HasSuffix(l, "|") {
				t.Errorf("line %d has %d cells, its table %d: %q", i+1, n, cells, l)
			}
		} else if cells >= 0 {
			t.Errorf("line %d breaks a table: %q", i+1, l)
		}
		if strings.HasPrefix(l, "- **") {
			continue // mcpsh's own emphasis: a directory's name
		}
		if live := liveMarkdown(l); live != "" {
			t.Errorf("line %d has a live %s: %q", i+1, live, l)
		}
		if strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "## mcpsh audit: ") && !strings.HasPrefix(l, "### ") {
			t.Errorf("line %d is a heading: %q", i+1, l)
		}
	}
	// The text is still there to read.
	for _, want := range []string{"`[click](https://evil.example/a)`", "`a\\|b\\|c`", "`` `code` **bold** _it_ ~~struck~~ ``", `\<img src\=x onerror\=alert\(1\)\>`} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %s:\n%s", want, md)
		}
	}
	if t.Failed() {
		t.Logf("the report:\n%s", md)
	}
}

// tableCells counts a row's cells as GFM splits them, code spans
// included: -1 when renderers would split it differently. cmark-gfm
// (GitHub) takes a pipe right after a backslash as escaped; markdown-it one
// after an odd run of backslashes.
func tableCells(row string) int {
	cmark, mdit, run := 0, 0, 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			run++
			continue
		case '|':
			if run == 0 {
				cmark++
			}
			if run%2 == 0 {
				mdit++
			}
		}
		run = 0
	}
	if cmark != mdit {
		return -1
	}
	return cmark - 1
}

// liveMarkdown names the first construct in line that a Markdown renderer
// (CommonMark, GFM, GitHub's) would make live, or "": outside code spans
// and escapes, a link or image bracket, HTML or an autolink, an entity,
// emphasis or strikethrough, math, a bare URL, www. address, e-mail
// address or mention, an emoji code or an issue reference.
func liveMarkdown(line string) string {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			i++
		case c == '`':
			run := 1
			for i+run < len(line) && line[i+run] == '`' {
				run++
			}
			end := strings.Index(line[i+run:], strings.Repeat("`", run))
			if end < 0 {
				i += run - 1 // no closing run: literal backticks
				continue
			}
			i += run + end + run - 1
		case c == '[' || c == ']':
			return "link bracket"
		case c == '<':
			return "HTML or autolink"
		case c == '&' && i+1 < len(line) && (line[i+1] == '#' || isAlnum(line[i+1])):
			return "entity"
		case c == '*' || c == '_' || c == '~':
			if c == '*' && i == 0 {
				continue
			}
			return "emphasis"
		case c == '$':
			return "math"
		case c == ':' && strings.HasPrefix(line[i:], "://"):
			return "URL"
		case c == '@':
			return "mention or e-mail address"
		case c == ':' && emojiCode(line[i+1:]):
			return "emoji code"
		case c == '#' && i > 0 && i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9':
			return "issue reference"
		case c == '.' && i >= 3 && strings.EqualFold(line[i-3:i], "www"):
			return "www address"
		}
	}
	return ""
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// emojiCode reports whether s starts as the rest of an emoji code, after
// its first colon: a name, then an unescaped colon.
func emojiCode(s string) bool {
	i := 0
	for i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '+' || s[i] == '-') {
		i++
	}
	return i > 0 && i < len(s) && s[i] == ':'
}
