package config

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ~/.claude.json is Claude Code's state: besides the servers it keeps every
// project's settings, and older versions every project's prompt history,
// so it grows to megabytes. encoding/json reads about 100 MB/s, which would
// cost every mcpsh command tens of milliseconds for the few hundred bytes
// mcpsh wants. So the file is walked by jsonSpan, which only finds where
// each value starts and ends, and the values mcpsh uses (mcpServers, the
// working folder's project entry) are then parsed by the usual parser.

// jsonMember is one name and value of an object, as spans of the text.
type jsonMember struct {
	name       string
	nameStart  int // the opening quote of the name
	start, end int // the value's bytes: data[start:end]
}

// jsonObject lists the members of the object that starts at data[i]
// (whitespace first allowed) whose names are wanted. walk, when not nil,
// finds the end of each value in place of skipValue, so a caller can look
// inside one on the way. A syntax error comes back with its offset.
func jsonObject(data []byte, i int, wanted func(string) bool, walk func(name string, start int) (int, error)) ([]jsonMember, int, error) {
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != '{' {
		return nil, i, fmt.Errorf("want an object")
	}
	i = skipSpace(data, i+1)
	var out []jsonMember
	if i < len(data) && data[i] == '}' {
		return nil, i + 1, nil
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, i, fmt.Errorf("want a member's name")
		}
		nameStart := i
		nameEnd, err := stringEnd2(data, i)
		if err != nil {
			return nil, i, err
		}
		var name string
		if err := json.Unmarshal(data[i:nameEnd], &name); err != nil {
			return nil, i, fmt.Errorf("bad member name")
		}
		i = skipSpace(data, nameEnd)
		if i >= len(data) || data[i] != ':' {
			return nil, i, fmt.Errorf("want ':' after a member's name")
		}
		start := skipSpace(data, i+1)
		var end int
		if walk != nil {
			end, err = walk(name, start)
		} else {
			end, err = skipValue(data, start)
		}
		if err != nil {
			return nil, end, err
		}
		if wanted(name) {
			out = append(out, jsonMember{name, nameStart, start, end})
		}
		i = skipSpace(data, end)
		switch {
		case i < len(data) && data[i] == ',':
			i = skipSpace(data, i+1)
		case i < len(data) && data[i] == '}':
			return out, i + 1, nil
		default:
			return nil, i, fmt.Errorf("want ',' or '}' after a member")
		}
	}
}

// skipValue returns the end of the JSON value starting at data[i]. It checks
// only what it must to find the end: brackets balance and strings close.
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return i, fmt.Errorf("unexpected end of JSON input")
	}
	switch data[i] {
	case '"':
		return stringEnd2(data, i)
	case '{', '[':
		var stack []byte
		for j := i; j < len(data); j++ {
			for j < len(data) && !structural[data[j]] {
				j++
			}
			if j == len(data) {
				break
			}
			switch c := data[j]; c {
			case '"':
				end, err := stringEnd2(data, j)
				if err != nil {
					return end, err
				}
				j = end - 1
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || (c == '}') != (stack[len(stack)-1] == '{') {
					return j, fmt.Errorf("unbalanced %q", c)
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return j + 1, nil
				}
			}
		}
		return len(data), fmt.Errorf("unexpected end of JSON input")
	}
	j := i
	for j < len(data) && !isSpace(data[j]) && data[j] != ',' && data[j] != '}' && data[j] != ']' {
		j++
	}
	if j == i {
		return i, fmt.Errorf("want a value")
	}
	return j, nil
}

// stringEnd2 returns the end of the string whose quote is data[i], past the
// closing quote.
func stringEnd2(data []byte, i int) (int, error) {
	for j := i + 1; j < len(data); {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			break
		}
		j += k
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for b := j - 1; b > i && data[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, nil
		}
		j++
	}
	return len(data), fmt.Errorf("unterminated string")
}

// structural are the bytes skipValue stops at inside an object or array.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// skipSpace skips JSON whitespace.
func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}
