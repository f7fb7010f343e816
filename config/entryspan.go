package config

import (
	"errors"
	"fmt"
	"strings"
)

// mcpsh proxy config edits one server's entry of a host's JSON or JSONC
// file in place (internal/hostedit). It finds the entry here, with the
// walker ~/.claude.json is read with, on a copy of the text whose comments
// and trailing commas are blanked at the same offsets (stripJSONC): every
// offset found on the copy is the same place in the file as written, so the
// edit is a splice of the original bytes and leaves the rest as it was.

// Member is one member of a JSON object, as offsets into the file's text.
type Member struct {
	Name string
	// NameStart is the opening quote of the member's name.
	NameStart int
	// Start and End are the value's bytes: text[Start:End].
	Start, End int
}

// ErrNoEntry is what EntrySpan's error wraps when a key of the path is not
// in the file.
var ErrNoEntry = errors.New("not in the file")

// StripJSONC returns a copy of a JSON or JSONC file's text with its
// comments, trailing commas and byte order mark turned into spaces at the
// same offsets, for Members. file only names the file in an error.
func StripJSONC(file string, data []byte) ([]byte, error) {
	clean, serr := stripJSONC(data)
	if serr != nil {
		return nil, (&parser{file: file}).syntax(data, serr.off, serr.msg)
	}
	return clean, nil
}

// Members lists the members of the object that starts at clean[i]
// (whitespace first allowed), clean being StripJSONC's copy, in file order,
// and returns the offset past its closing brace. Only what locating needs is
// checked: a file is checked whole by EntrySpan.
func Members(clean []byte, i int) ([]Member, int, error) {
	ms, end, err := jsonObject(clean, i, func(string) bool { return true }, nil)
	if err != nil {
		return nil, end, err
	}
	out := make([]Member, len(ms))
	for k, m := range ms {
		out[k] = Member{Name: m.name, NameStart: m.nameStart, Start: m.start, End: m.end}
	}
	return out, end, nil
}

// EntrySpan finds the member at path (the names of the objects from the
// top, such as mcpServers, github) in the text of a host's JSON or JSONC
// file. The file is checked whole first, so a syntax error comes back with
// its line and column; a key that is missing (the error wraps ErrNoEntry),
// given twice or not an object comes back as an *Error naming file and key.
func EntrySpan(file string, data []byte, path []string) (Member, error) {
	p := &parser{file: file}
	raw, err := p.decode(data)
	if err != nil {
		return Member{}, err
	}
	if raw == nil {
		return Member{}, p.errf("", "holds no JSON object")
	}
	clean, _ := stripJSONC(data) // decode has stripped it once without error
	return findMember(p, clean, 0, path)
}

// findMember walks path from the object at clean[i].
func findMember(p *parser, clean []byte, i int, path []string) (Member, error) {
	if len(path) == 0 {
		return Member{}, p.errf("", "no key to find")
	}
	var found Member
	for depth, name := range path {
		ms, _, err := Members(clean, i)
		if err != nil {
			k := kind(clean[min(i, len(clean)):])
			if depth == 0 {
				return Member{}, p.errf("", "want an object at the top level, got %s", k)
			}
			return Member{}, p.errf(KeyString(path[:depth]), "want an object, got %s", k)
		}
		n := 0
		for _, m := range ms {
			if m.Name == name {
				found = m
				n++
			}
		}
		key := KeyString(path[:depth+1])
		switch n {
		case 0:
			return Member{}, &Error{File: p.file, Key: key, Msg: ErrNoEntry.Error(), Err: ErrNoEntry}
		case 1:
		default:
			return Member{}, p.errf(key, "duplicate key")
		}
		i = found.Start
	}
	return found, nil
}

// KeyString writes a key path as mcpsh's messages do: mcpServers.github,
// and ~/.claude.json's projects[/dir].mcpServers.db.
func KeyString(path []string) string {
	var b strings.Builder
	for i, k := range path {
		switch {
		case i == 1 && path[0] == "projects":
			fmt.Fprintf(&b, "[%s]", k)
		case i > 0:
			b.WriteString("." + k)
		default:
			b.WriteString(k)
		}
	}
	return b.String()
}
