package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// scriptLine is one call in a run script, with the expectations that follow it.
type scriptLine struct {
	N       int    // line number, from 1
	Tool    string // tool name
	Argv    []string
	Expects []expectation
	// Unfilled: an argument is still a placeholder (reported already), so its
	// values are not checked against the schema.
	Unfilled bool
}

// scriptError names the file and line at fault.
type scriptError struct {
	file string
	line int
	msg  string
}

func (e *scriptError) Error() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg) }

// Where the expectations of the next "expect" line go, besides a call's index.
const (
	noCall  = -1 // no call yet
	badCall = -2 // the call before has a mistake: check the line, attach it nowhere
)

// parseScript reads a run script: one call per line, "TOOL {json}" or
// "TOOL key=value ...", with '#' comment lines and blank lines ignored.
// Values, and the tool's name, may be quoted as in a shell: title="Buy milk".
// A line whose first word is expect, unquoted, is an expectation of the call
// before it; a tool named expect is called as 'expect'.
func parseScript(file string, r io.Reader) ([]scriptLine, []error) {
	var lines []scriptLine
	var errs []error
	fail := func(n int, msg string) { errs = append(errs, &scriptError{file, n, msg}) }
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n := 0
	call := noCall
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		word, quoted, end, err := scanWord(text, 0)
		if err != nil {
			fail(n, err.Error())
			call = badCall
			continue
		}
		rest := strings.TrimSpace(text[end:])
		if word == "expect" && !quoted {
			e, err := parseExpect(rest)
			e.Line = n
			switch {
			case err != nil:
				fail(n, "expect: "+err.Error())
			case call == noCall:
				fail(n, "expect before any call: an expectation follows the call it checks (a tool named expect is called as 'expect')")
			case call >= 0:
				if err := lines[call].addExpect(e); err != nil {
					fail(n, err.Error())
				}
			}
			continue
		}
		call = badCall
		if word == "" {
			fail(n, "the tool's name is empty")
			continue
		}
		l := scriptLine{N: n, Tool: word}
		switch {
		case rest == "":
		case strings.HasPrefix(rest, "{"):
			l.Argv = []string{rest}
		default:
			argv, err := splitWords(rest)
			if err != nil {
				fail(n, err.Error())
				continue
			}
			l.Argv = argv
		}
		for _, msg := range unfilled(l.Argv) {
			fail(n, msg)
			l.Unfilled = true
		}
		lines = append(lines, l)
		call = len(lines) - 1
	}
	if err := sc.Err(); err != nil {
		fail(n+1, err.Error())
	}
	return lines, errs
}

// addExpect attaches e to the call. One status per call: two would contradict
// each other or say the same thing twice.
func (l *scriptLine) addExpect(e expectation) error {
	if e.Kind == expectStatus {
		for _, x := range l.Expects {
			if x.Kind == expectStatus {
				return fmt.Errorf("expect: the call on line %d already expects status %s (line %d)", l.N, x.Status, x.Line)
			}
		}
	}
	l.Expects = append(l.Expects, e)
	return nil
}

// splitWords splits like a POSIX shell, without expansion: single quotes are
// literal, double quotes allow \" and \\, a backslash outside quotes escapes.
func splitWords(s string) ([]string, error) {
	var words []string
	for i := skipBlanks(s, 0); i < len(s); i = skipBlanks(s, i) {
		w, _, end, err := scanWord(s, i)
		if err != nil {
			return nil, err
		}
		words = append(words, w)
		i = end
	}
	return words, nil
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// scanWord reads the word that starts at s[i] (after blanks), as splitWords
// does, and says whether any of it was quoted or escaped and where it ended.
func scanWord(s string, i int) (word string, quoted bool, end int, err error) {
	var cur strings.Builder
	for i = skipBlanks(s, i); i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			return cur.String(), quoted, i, nil
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", false, 0, fmt.Errorf("unterminated ' quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			quoted = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return "", false, 0, fmt.Errorf(`unterminated " quote`)
			}
			quoted = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			quoted = true
		default:
			cur.WriteByte(c)
		}
	}
	return cur.String(), quoted, i, nil
}
