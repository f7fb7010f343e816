package client

import (
	"encoding/json"
)

// parseResultFast reads a result the way parseResult's general path does, in
// fewer passes: encoding/json checks the whole text again for every nested
// Unmarshal, and a result went through three (the object, its content array,
// each block), which was most of mcpsh's own cost per call after go-sdk's.
// Here the text is checked once, the top level and the content array are cut
// by a scanner that only tracks strings and brackets, and each block is read
// by parseBlock, as on the general path.
//
// ok is false for anything but the plain case (a key spelled other than
// exactly, a content that is not an array, an isError that is not a
// boolean, text that is not JSON): the general path reads those, with its
// problems and errors. FuzzParseResultFast holds the two paths equal.
//
// The result's RawContent, Structured and Block.Raw are slices of raw, not
// copies: raw is the tap's own copy of the answer (go-sdk's decoder copies
// a message's result), which nothing writes to.
func parseResultFast(raw json.RawMessage) (r *Result, ok bool) {
	if !json.Valid(raw) {
		return nil, false
	}
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	var content, structured, isError []byte
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] != '}' {
		// A key: a string, then a colon.
		kEnd := skipString(raw, i)
		key := raw[i+1 : kEnd-1]
		i = skipSpace(raw, kEnd)
		i = skipSpace(raw, i+1) // the colon
		vEnd := skipValue(raw, i)
		val := raw[i:vEnd]
		switch string(key) {
		case "content":
			content = val
		case "structuredContent":
			structured = val
		case "isError":
			isError = val
		default:
			if foldsToField(key) {
				// encoding/json matches keys without regard to case or
				// escapes: the general path does as it does.
				return nil, false
			}
		}
		i = skipSpace(raw, vEnd)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	r = &Result{Size: len(raw), RawContent: content}
	if !isNull(structured) {
		r.Structured = structured
	}
	switch string(isError) {
	case "", "null", "false":
	case "true":
		r.IsError = true
	default:
		return nil, false
	}
	if isNull(content) {
		r.RawContent = json.RawMessage("[]")
		return r, true
	}
	if content[0] != '[' {
		return nil, false
	}
	for j := skipSpace(content, 1); j < len(content) && content[j] != ']'; {
		end := skipValue(content, j)
		r.Content = append(r.Content, parseBlock(content[j:end]))
		j = skipSpace(content, end)
		if j < len(content) && content[j] == ',' {
			j = skipSpace(content, j+1)
		}
	}
	return r, true
}

// foldsToField reports whether key could be one of the result's fields to
// encoding/json, which folds case and reads escapes.
func foldsToField(key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= 0x80 {
			return true
		}
	}
	for _, f := range [...]string{"content", "structuredContent", "isError"} {
		if len(key) == len(f) && equalFoldASCII(key, f) {
			return true
		}
	}
	return false
}

func equalFoldASCII(b []byte, s string) bool {
	for i := range b {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
