// Package jsonscan holds scanners over JSON text that only track strings
// and brackets: cheaper than a decoder where all that is wanted is where a
// value ends, an object's members as they are written, or how deep the text
// nests. client reads servers' answers with them, internal/proxy passes
// results on as the server's bytes.
package jsonscan

import "encoding/json"

// NestsDeeper reports whether JSON text nests objects and arrays more than
// limit levels deep. It is exact for valid JSON and never fails on text that
// is not.
func NestsDeeper(b []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch c {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// Members calls f with each member of the JSON object b, in order: its key
// as written (a string literal, quotes and escapes kept) and its value, both
// slices of b. It reports false when b is not one valid JSON object, or
// when f returned false.
func Members(b []byte, f func(key, value []byte) bool) bool {
	if !json.Valid(b) {
		return false
	}
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	for i = SkipSpace(b, i+1); i < len(b) && b[i] != '}'; {
		kEnd := SkipString(b, i)
		key := b[i:kEnd]
		i = SkipSpace(b, SkipSpace(b, kEnd)+1) // past the colon
		vEnd := SkipValue(b, i)
		if !f(key, b[i:vEnd]) {
			return false
		}
		if i = SkipSpace(b, vEnd); i < len(b) && b[i] == ',' {
			i = SkipSpace(b, i+1)
		}
	}
	return true
}

// The three below read text json.Valid has accepted, so they only find where
// things end: a string's closing quote, a value's last byte.

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index just past the string that starts at b[i].
func SkipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// SkipValue returns the index just past the value that starts at b[i].
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = SkipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	default: // a number, true, false or null
		for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
			i++
		}
		return i
	}
}
