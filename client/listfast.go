package client

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
)

// A large listing was read at about 22 MB/s, most of it encoding/json
// checking the same bytes again: each json.Unmarshal checks its whole input
// before it decodes, and a page went through one for the page, one for its
// array, one for each tool and one for each of a tool's strings. Here the
// page is checked once (json.Valid), and cut into its items and a tool into
// its members by jsonscan, which then only has to find where things end.
//
// The fast paths take the plain case only: keys without escapes or bytes
// beyond ASCII (encoding/json matches a struct's fields without regard to
// case, and would unescape or mend such a key first), a page that is an
// object with an array or null for its items, a tool that is an object with
// a string for its name. Anything else goes to the readers in pages.go and
// tool.go as before, which name what is wrong. TestListFastIsTheSlowPath
// and FuzzListFast hold the two to the same answers.
//
// What the fast paths return are slices of the page, not copies: the page is
// kept whole anyway (the listing's pages), and nothing writes to either. Each
// is capped at its end, so an append to one cannot write over the page.

// listPageFast is parseListPage for a page in the plain case, a string or
// null for its next cursor; ok is false for anything else.
func listPageFast(raw json.RawMessage, field string) (items []json.RawMessage, next *string, ok bool) {
	switch field {
	case "tools", "resources", "resourceTemplates", "prompts":
	default:
		return nil, nil, false
	}
	if !json.Valid(raw) {
		return nil, nil, false
	}
	var arr, cursor []byte
	if !jsonscan.MembersOfValid(raw, func(k, v []byte) bool {
		key, plain := plainKey(k)
		switch {
		case !plain:
			return false
		case foldEqual(key, field):
			// The last of a repeated key counts, as with encoding/json.
			arr = v
		case foldEqual(key, "nextCursor"):
			cursor = v
		}
		return true
	}) {
		return nil, nil, false
	}
	if !isNull(arr) {
		items = []json.RawMessage{}
		if !jsonscan.ElementsOfValid(arr, func(it []byte) bool {
			items = append(items, it[:len(it):len(it)])
			return true
		}) {
			return nil, nil, false
		}
	}
	if !isNull(cursor) {
		s, err := stringOf(cursor)
		if err != nil {
			return nil, nil, false
		}
		next = &s
	}
	return items, next, true
}

// plainKey is a member's key (as written, quotes kept) without its quotes,
// and whether it is plain: no escape, nothing beyond ASCII.
func plainKey(k []byte) ([]byte, bool) {
	k = k[1 : len(k)-1]
	for _, c := range k {
		if c == '\\' || c >= utf8.RuneSelf {
			return nil, false
		}
	}
	return k, true
}

// toolFields are the members of a tool mcpsh reads, as wireTool names them.
const (
	tfName = iota
	tfTitle
	tfDescription
	tfInputSchema
	tfOutputSchema
	tfAnnotations
	tfMeta
	tfExecution
	tfCount
)

var toolFieldNames = [tfCount]string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta", "execution"}

// toolFast is parseTool for a tool in the plain case, raw valid JSON; ok is
// false for anything else (then raw goes to parseToolSlow).
func toolFast(raw json.RawMessage) (t *Tool, ok bool) {
	var w [tfCount][]byte
	if !jsonscan.MembersOfValid(raw, func(k, v []byte) bool {
		key, plain := plainKey(k)
		if !plain {
			return false
		}
		for i, name := range toolFieldNames {
			if foldEqual(key, name) {
				// The last of a repeated key counts, as with encoding/json.
				w[i] = v[:len(v):len(v)]
				break
			}
		}
		return true
	}) {
		return nil, false
	}
	name, err := stringOf(w[tfName])
	if err != nil || name == "" {
		return nil, false // no name: parseToolSlow says so
	}
	t = &Tool{Raw: raw, Name: name, InputSchema: w[tfInputSchema], OutputSchema: w[tfOutputSchema]}
	t.readRest(w[tfTitle], w[tfDescription], w[tfAnnotations], w[tfMeta], w[tfExecution])
	return t, true
}

// annotationsFast reads an annotations object in the plain case (keys
// without escapes or bytes beyond ASCII, which a map keeps as written), raw
// valid JSON, as json.Unmarshal into a map does; ok is false for anything
// else.
func annotationsFast(raw json.RawMessage) (ann map[string]json.RawMessage, ok bool) {
	ann = map[string]json.RawMessage{}
	if !jsonscan.MembersOfValid(raw, func(k, v []byte) bool {
		key, plain := plainKey(k)
		if plain {
			ann[string(key)] = v[:len(v):len(v)]
		}
		return plain
	}) {
		return nil, false
	}
	return ann, true
}

// stringOf reads a JSON value as json.Unmarshal into a string does; raw
// must be valid JSON (a member cut from checked text). A plain string (no
// escape, valid UTF-8) is the bytes between its quotes, where encoding/json
// would check it, scan it again and copy it twice.
func stringOf(raw []byte) (string, error) {
	if s, ok := plainString(raw); ok {
		return s, nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// plainString is the text of raw, valid JSON, when it is a string without
// escapes in valid UTF-8 (valid JSON has no control byte or bare quote
// inside a string). Invalid UTF-8 is for encoding/json, which puts U+FFFD
// in place of each bad byte.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	if bytes.IndexByte(in, '\\') >= 0 || !utf8.Valid(in) {
		return "", false
	}
	return string(in), true
}
