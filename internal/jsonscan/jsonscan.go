// Package jsonscan holds scanners over JSON text that only track strings
// and brackets: cheaper than a decoder where all that is wanted is where a
// value ends, an object's members as they are written, or how deep the text
// nests. client reads servers' answers with them, internal/proxy passes
// results on as the server's bytes.
package jsonscan

import (
	"bytes"
	"encoding/json"
)

// NestsDeeper reports whether JSON text nests objects and arrays more than
// limit levels deep. It is exact for valid JSON and never fails on text that
// is not.
func NestsDeeper(b []byte, limit int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			// Strings are most of a large answer's bytes: SkipString
			// passes them several times faster than a look at each byte.
			i = SkipString(b, i) - 1
		case '{', '[':
			if depth++; depth > limit {
				return true
			}
		case '}', ']':
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
	return json.Valid(b) && MembersOfValid(b, f)
}

// MembersOfValid is Members for text already known to be valid JSON (a
// value cut from text json.Valid has accepted), which it does not check
// again: on a large answer that check costs more than the walk. It reports
// false when b is not an object, or when f returned false.
func MembersOfValid(b []byte, f func(key, value []byte) bool) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	for i = SkipSpace(b, i+1); i < len(b) && b[i] != '}'; {
		kEnd := SkipString(b, i)
		key := b[i:kEnd]
		i = SkipSpace(b, min(SkipSpace(b, kEnd)+1, len(b))) // past the colon
		vEnd := SkipValue(b, i)
		if !f(key, b[i:vEnd]) {
			return false
		}
		if i = SkipSpace(b, vEnd); i < len(b) && b[i] == ',' {
			i = SkipSpace(b, i+1)
		} else if i < len(b) && b[i] != '}' {
			return false // not JSON after all: no walk without end
		}
	}
	return true
}

// ElementsOfValid calls f with each element of the JSON array b, in order,
// a slice of b. b must be valid JSON (see MembersOfValid). It reports false
// when b is not an array, or when f returned false.
func ElementsOfValid(b []byte, f func(elem []byte) bool) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	for i = SkipSpace(b, i+1); i < len(b) && b[i] != ']'; {
		end := SkipValue(b, i)
		if !f(b[i:end]) {
			return false
		}
		if i = SkipSpace(b, end); i < len(b) && b[i] == ',' {
			i = SkipSpace(b, i+1)
		} else if i < len(b) && b[i] != ']' {
			return false // not JSON after all: no walk without end
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
// It looks for the quotes and backslashes with bytes.IndexByte, several
// times faster than a loop over each byte on the long strings of a large
// listing (descriptions), and every byte is looked at a bounded number of
// times however many escapes the string holds.
func SkipString(b []byte, i int) int {
	i++
	q := -1 // the next quote at or after i, once found
	for i < len(b) {
		if q < i {
			n := bytes.IndexByte(b[i:], '"')
			if n < 0 {
				return len(b)
			}
			q = i + n
		}
		e := bytes.IndexByte(b[i:q], '\\')
		if e < 0 {
			return q + 1
		}
		i += e + 2 // past the backslash and the byte it escapes
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
