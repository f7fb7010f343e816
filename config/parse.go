package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// serverKeys are the top-level keys that hold servers: mcpServers (Claude
// Desktop, Cursor, Claude Code) and servers (VS Code). Everything else at the
// top level, such as VS Code's "inputs", is ignored.
var serverKeys = []string{"mcpServers", "servers"}

// Load reads and parses the configuration file at path. A nil getenv means no
// variable is set.
func Load(path string, getenv func(string) (string, bool)) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			msg = pe.Err.Error() // the path is already in front
		}
		return nil, &Error{File: path, Msg: msg, Err: err}
	}
	return Parse(path, data, getenv)
}

// Parse parses the text of a configuration file; path only names it in errors.
// A file with nothing but whitespace and comments configures no servers. A nil
// getenv means no variable is set.
func Parse(path string, data []byte, getenv func(string) (string, bool)) (*File, error) {
	if getenv == nil {
		getenv = noEnv
	}
	p := &parser{file: path, getenv: getenv}
	f := &File{Path: path}
	raw, err := p.decode(data)
	if err != nil {
		return nil, err
	}
	if raw == nil {
		return f, nil
	}
	top, err := p.object("", raw, func(k string) bool { return slices.Contains(serverKeys, k) || ownKeys[k] })
	if err != nil {
		return nil, err
	}
	if err := p.own(f, top); err != nil { // "discover" and "trust" (discover_own.go)
		return nil, err
	}
	seen := map[string]string{} // server name → key it came from
	for _, m := range top {
		if !slices.Contains(serverKeys, m.name) || kind(m.value) == "null" {
			continue
		}
		servers, err := p.object(m.name, m.value, nil)
		if err != nil {
			return nil, err
		}
		for _, sm := range servers {
			if sm.name == "" {
				return nil, p.errf(m.name, "a server has an empty name")
			}
			key := m.name + "." + sm.name
			if prev, dup := seen[sm.name]; dup {
				return nil, p.errf(key, "server %q is also defined as %s", sm.name, prev)
			}
			seen[sm.name] = key
			s, err := p.server(key, sm.name, sm.value)
			if err != nil {
				return nil, err
			}
			f.Servers = append(f.Servers, s)
		}
	}
	slices.SortFunc(f.Servers, func(a, b *Server) int { return strings.Compare(a.Name, b.Name) })
	if f.Log, err = p.log(top); err != nil {
		return nil, err
	}
	return f, nil
}

// decode reads the text of a JSON or JSONC file; nil, with no error, when it
// holds nothing but whitespace and comments. A syntax error says where.
func (p *parser) decode(data []byte) (json.RawMessage, error) {
	clean, serr := stripJSONC(data)
	if serr != nil {
		return nil, p.syntax(data, serr.off, serr.msg)
	}
	if len(bytes.TrimSpace(clean)) == 0 {
		return nil, nil
	}
	var raw json.RawMessage
	if err := json.Unmarshal(clean, &raw); err != nil {
		if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
			// Offset counts the bytes read, the offending one included; at the
			// end of the input there is no offending byte.
			off := int(se.Offset) - 1
			if strings.HasPrefix(se.Error(), "unexpected end") {
				off = len(data)
			}
			return nil, p.syntax(data, off, se.Error())
		}
		return nil, &Error{File: p.file, Msg: err.Error(), Err: err}
	}
	return raw, nil
}

// parser carries what every error and expansion needs while one file is parsed.
type parser struct {
	file   string
	getenv func(string) (string, bool)
	// d is the dialect of another host's file; nil for mcpsh's own, which
	// is read with every key and mcpshForms (discover_parse.go).
	d *dialect
	// f are the references the file's host expands, with its predefined
	// variables; nil means mcpshForms.
	f *forms
}

// forms are the references this file's host expands.
func (p *parser) forms() *forms {
	if p.f == nil {
		return mcpshForms
	}
	return p.f
}

// errf returns an *Error about the value at key.
func (p *parser) errf(key, format string, args ...any) *Error {
	return &Error{File: p.file, Key: key, Msg: fmt.Sprintf(format, args...)}
}

// syntax returns an *Error at the byte offset off of the original text.
func (p *parser) syntax(data []byte, off int, msg string) *Error {
	line, col := position(data, off)
	return &Error{File: p.file, Line: line, Col: col, Msg: msg}
}

// member is one name and value of a JSON object.
type member struct {
	name  string
	value json.RawMessage
}

// object returns the members of the JSON object raw, in file order. A name that
// appears twice is an error when it matters, that is when relevant is nil or says
// so: JSON would silently keep the last, and the user may be editing the other.
func (p *parser) object(key string, raw json.RawMessage, relevant func(string) bool) ([]member, error) {
	if k := kind(raw); k != "an object" {
		if key == "" {
			return nil, p.errf("", "want an object at the top level, got %s", k)
		}
		return nil, p.errf(key, "want an object, got %s", k)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, p.errf(key, "%v", err)
	}
	var ms []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, p.errf(key, "%v", err)
		}
		m := member{name: tok.(string)}
		if err := dec.Decode(&m.value); err != nil {
			return nil, p.errf(key, "%v", err)
		}
		if seen[m.name] && (relevant == nil || relevant(m.name)) {
			return nil, p.errf(join(key, m.name), "duplicate key")
		}
		seen[m.name] = true
		ms = append(ms, m)
	}
	return ms, nil
}

// join appends name to the key path key.
func join(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}

// kind names the JSON type of raw, for messages such as "want a string, got a number".
func kind(raw json.RawMessage) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
