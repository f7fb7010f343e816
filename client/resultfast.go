package client

import (
	"encoding/json"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
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
	fs, ok := objectFieldsFast(raw)
	if !ok {
		// Not an object, or a key with an escape or beyond ASCII, which
		// encoding/json might read as one of the result's.
		return nil, false
	}
	return resultFromFields(raw, fs)
}

// resultFromFields is parseResultFast on raw already cut into its members by
// objectFieldsFast.
func resultFromFields(raw json.RawMessage, fs []field) (r *Result, ok bool) {
	var content, structured, isError []byte
	for _, f := range fs {
		switch f.key {
		case "content":
			content = f.value
		case "structuredContent":
			structured = f.value
		case "isError":
			isError = f.value
		default:
			if foldsToField(f.key) {
				// encoding/json matches keys without regard to case: the
				// general path does as it does.
				return nil, false
			}
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
	for j := jsonscan.SkipSpace(content, 1); j < len(content) && content[j] != ']'; {
		end := jsonscan.SkipValue(content, j)
		r.Content = append(r.Content, parseBlock(content[j:end]))
		j = jsonscan.SkipSpace(content, end)
		if j < len(content) && content[j] == ',' {
			j = jsonscan.SkipSpace(content, j+1)
		}
	}
	return r, true
}

// readAnswer reads the answer to a call: whether it asks for more input
// (needsInput, with its violations), and if not, the result (parseResult,
// its errors made unreadable). The text is checked and cut into its members
// once for both: a call's answer used to be read twice, by a token-by-token
// decoder for its resultType and then by parseResultFast.
func readAnswer(raw json.RawMessage) (asks bool, r *Result, err error) {
	fs, ok := objectFieldsFast(raw)
	if !ok {
		if asks, err = needsInput(raw); err != nil || asks {
			return asks, nil, err
		}
		if r, err = parseResult(raw); err != nil {
			return false, nil, unreadable(err)
		}
		return false, r, nil
	}
	if asks, err = fieldsNeedInput(fs); err != nil || asks {
		return asks, nil, err
	}
	if r, ok = resultFromFields(raw, fs); ok {
		return false, r, nil
	}
	if r, err = parseResultSlow(raw); err != nil {
		return false, nil, unreadable(err)
	}
	return false, r, nil
}

// foldsToField reports whether key could be one of the result's fields to
// encoding/json, which folds case (objectFieldsFast has left out keys with
// escapes or beyond ASCII).
func foldsToField(key string) bool {
	for _, f := range [...]string{"content", "structuredContent", "isError"} {
		if foldEqual(key, f) {
			return true
		}
	}
	return false
}

// foldEqual reports whether encoding/json would take the ASCII key for the
// field name: equal but for the case of ASCII letters. The key may be the
// bytes as sent: made a string, it would cost an allocation for every
// member of every tool of a listing.
func foldEqual[K ~string | ~[]byte](key K, field string) bool {
	if len(key) != len(field) {
		return false
	}
	for i := range len(key) {
		x, y := key[i], field[i]
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
