package config

import "bytes"

// syntaxError is a problem found while stripping JSONC, at a byte offset.
type syntaxError struct {
	off int
	msg string
}

// bom is the UTF-8 byte order mark some Windows editors put at the start of a file.
var bom = []byte("\xef\xbb\xbf")

// stripJSONC turns JSON with comments and trailing commas (VS Code's JSONC) into
// JSON that encoding/json accepts. Comments, trailing commas and a leading byte
// order mark become spaces rather than disappearing, and newlines stay, so every
// byte offset the decoder reports still points at the same place in the original
// text. Text inside strings, such as the "//" of a URL, is never touched. Plain
// JSON comes back unchanged.
func stripJSONC(data []byte) ([]byte, *syntaxError) {
	out := bytes.Clone(data)
	if bytes.HasPrefix(out, bom) {
		blank(out[:len(bom)])
	}
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '"':
			i = stringEnd(out, i)
		case bytes.HasPrefix(out[i:], []byte("//")):
			end := bytes.IndexByte(out[i:], '\n')
			if end < 0 {
				end = len(out) - i
			}
			blank(out[i : i+end])
			i += end
		case bytes.HasPrefix(out[i:], []byte("/*")):
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				return nil, &syntaxError{i, "unterminated /* comment"}
			}
			end += i + 4
			blank(out[i:end])
			i = end - 1
		}
	}
	// A second pass, so that a comment between a comma and the bracket it
	// precedes (already blank) does not hide the comma. Only a comma that
	// follows a value is trailing: "[,]" and "[1,,]" stay errors.
	var prev byte // the last byte outside whitespace
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '"':
			i = stringEnd(out, i)
		case c == ',' && prev != ',' && prev != '[' && prev != '{':
			j := i + 1
			for j < len(out) && isSpace(out[j]) {
				j++
			}
			if j < len(out) && (out[j] == '}' || out[j] == ']') {
				out[i] = ' '
				continue // prev stays the value before the comma
			}
		case isSpace(c):
			continue
		}
		prev = out[i]
	}
	return out, nil
}

// stringEnd returns the index of the quote that closes the string opening at
// data[i], or the last index when the string never closes (the decoder reports it).
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(data) - 1
}

// blank overwrites b with spaces, keeping line breaks so line numbers stay right.
func blank(b []byte) {
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
}

// isSpace reports the whitespace JSON allows between tokens.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
