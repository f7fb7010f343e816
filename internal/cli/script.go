package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// scriptLine is one call in a run script.
type scriptLine struct {
	N    int    // line number, from 1
	Tool string // tool name
	Argv []string
}

// scriptError names the file and line at fault.
type scriptError struct {
	file string
	line int
	msg  string
}

func (e *scriptError) Error() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg) }

// parseScript reads a run script: one call per line, "TOOL {json}" or
// "TOOL key=value ...", with '#' comment lines and blank lines ignored.
// Values may be quoted as in a shell: title="Buy milk".
func parseScript(file string, r io.Reader) ([]scriptLine, []error) {
	var lines []scriptLine
	var errs []error
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		tool, rest, _ := strings.Cut(text, " ")
		if i := strings.IndexAny(text, " \t"); i >= 0 {
			tool, rest = text[:i], strings.TrimSpace(text[i+1:])
		} else {
			tool, rest = text, ""
		}
		l := scriptLine{N: n, Tool: tool}
		switch {
		case rest == "":
		case strings.HasPrefix(rest, "{"):
			l.Argv = []string{rest}
		default:
			argv, err := splitWords(rest)
			if err != nil {
				errs = append(errs, &scriptError{file, n, err.Error()})
				continue
			}
			l.Argv = argv
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, &scriptError{file, n + 1, err.Error()})
	}
	return lines, errs
}

// splitWords splits like a POSIX shell, without expansion: single quotes are
// literal, double quotes allow \" and \\, a backslash outside quotes escapes.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf(`unterminated " quote`)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
