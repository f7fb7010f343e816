package hostedit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/mcpsh/mcpsh/config"
)

// Codex keeps each server in a [mcp_servers.NAME] table of config.toml,
// with sub-tables such as [mcp_servers.NAME.env], or as an inline table
// (mcp_servers.NAME = {…}, or NAME = {…} under [mcp_servers]). go-toml has
// no writer that keeps a file's layout, so the entry is found with its
// unstable parser, which gives every expression's bytes, and the changed
// keys are spliced in by hand.

// tomlEntry is where one server is written in config.toml.
type tomlEntry struct {
	// start and end are the entry's bytes: from its table header's line to
	// the end of its last line (its newline left out), or, inline, the
	// key and value.
	start, end int
	inline     bool
	// header is the table header's key as written (mcp_servers.figma), for
	// a sub-table added after it.
	header string
	kvs    []tomlKV
	// subs are its sub-tables ([mcp_servers.NAME.env]), in file order.
	subs []tomlSub
}

// tomlKV is one key and value of the entry.
type tomlKV struct {
	// key is relative to the entry: command; env, X for a dotted key; for
	// a sub-table's key, the sub-table's name first.
	key        []string
	sub        bool // in a sub-table
	start, end int  // the key and value
	vstart     int  // the value
	lineStart  int  // its line, indentation included
	lineEnd    int  // the end of its last line, before the newline
	kind       unstable.Kind
	str        string   // the value, when a string
	items      []string // an array's strings as written, or an inline table's values
	names      []string // an inline table's keys
	bad        string   // why an array or inline table does not hold strings only
}

// tomlSub is a sub-table of the entry.
type tomlSub struct {
	name                 string
	headerLine, lastLine int // where its header's line starts, where its last line ends
}

func (kv *tomlKV) is(key ...string) bool { return !kv.sub && slices.Equal(kv.key, key) }

// locateCodex finds [mcp_servers.NAME] in data. An entry written in pieces
// (dotted keys elsewhere, a sub-table after another server's table) is
// refused: there would be no one span to replace.
func locateCodex(file string, data []byte, name string) (*tomlEntry, error) {
	key := "mcp_servers." + name
	errAt := func(off int, format string, args ...any) error {
		line, col := position(data, off)
		return &config.Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	var p unstable.Parser
	p.Reset(data)
	var te *tomlEntry
	var table []string
	in, done := false, false // inside the entry's table and sub-tables; past them
	for p.NextExpression() {
		ex := p.Expression()
		switch ex.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, first, last := keyParts(ex.Key())
			table = parts
			bracket := bytes.LastIndexByte(data[:first.Offset], '[')
			if ex.Kind == unstable.ArrayTable {
				bracket = bytes.LastIndex(data[:first.Offset], []byte("[["))
			}
			mine := len(parts) >= 2 && parts[0] == "mcp_servers" && parts[1] == name
			switch {
			case mine && (done || te != nil && te.inline):
				return nil, errAt(bracket, "%s is written in more than one place; mcpsh edits it only when it is one table with its sub-tables", key)
			case mine && ex.Kind == unstable.ArrayTable:
				return nil, errAt(bracket, "%s: want a table, got an array of tables", key)
			case mine && len(parts) == 2:
				if te != nil {
					return nil, errAt(bracket, "%s: duplicate table", key)
				}
				te = &tomlEntry{start: lineStart(data, bracket), header: string(data[first.Offset : last.Offset+last.Length])}
				te.end = lineEnd(data, int(last.Offset+last.Length))
				in = true
			case mine:
				if !in {
					return nil, errAt(bracket, "%s is written in more than one place; mcpsh edits it only when it is one table with its sub-tables", key)
				}
				te.subs = append(te.subs, tomlSub{name: parts[2], headerLine: lineStart(data, bracket)})
				te.end = lineEnd(data, int(last.Offset+last.Length))
				te.subs[len(te.subs)-1].lastLine = te.end
			case in:
				in, done = false, true
			}
		case unstable.KeyValue:
			kparts, _, _ := keyParts(ex.Key())
			full := append(slices.Clone(table), kparts...)
			mineKV := len(full) >= 2 && full[0] == "mcp_servers" && full[1] == name
			switch {
			case in:
				kv := readKV(data, ex, full[2:])
				if len(table) > 2 {
					kv.sub = true
					te.subs[len(te.subs)-1].lastLine = kv.lineEnd
				}
				te.kvs = append(te.kvs, kv)
				te.end = kv.lineEnd
			case mineKV && len(full) == 2 && te == nil && ex.Value().Kind == unstable.InlineTable:
				kv := readKV(data, ex, nil)
				te = &tomlEntry{start: kv.start, end: kv.end, inline: true}
				for c := ex.Value().Children(); c.Next(); {
					n := c.Node()
					if n.Kind != unstable.KeyValue {
						continue
					}
					ip, _, _ := keyParts(n.Key())
					te.kvs = append(te.kvs, readKV(data, n, ip))
				}
				done = true
			case mineKV:
				return nil, errAt(int(ex.Raw.Offset), "%s is written with dotted keys; mcpsh edits it only as a [%s] table or an inline table", key, key)
			}
		}
	}
	if err := p.Error(); err != nil {
		var pe *unstable.ParserError
		if errors.As(err, &pe) {
			return nil, errAt(offsetIn(data, pe.Highlight), "%s", pe.Message)
		}
		return nil, &config.Error{File: file, Msg: err.Error()}
	}
	if te == nil {
		return nil, &config.Error{File: file, Key: key, Msg: config.ErrNoEntry.Error(), Err: config.ErrNoEntry}
	}
	return te, nil
}

// keyParts are a key's parts, decoded, and its first and last part's bytes.
func keyParts(it unstable.Iterator) (parts []string, first, last unstable.Range) {
	for i := 0; it.Next(); i++ {
		n := it.Node()
		parts = append(parts, string(n.Data))
		if i == 0 {
			first = n.Raw
		}
		last = n.Raw
	}
	return parts, first, last
}

// readKV reads a key = value expression whose key, relative to the entry,
// is key.
func readKV(data []byte, n *unstable.Node, key []string) tomlKV {
	_, _, last := keyParts(n.Key())
	kv := tomlKV{key: key, start: int(n.Raw.Offset), end: int(n.Raw.Offset + n.Raw.Length), kind: n.Value().Kind}
	i := skipSpaceTOML(data, int(last.Offset+last.Length))
	kv.vstart = skipSpaceTOML(data, i+1) // past "="
	kv.lineStart = lineStart(data, kv.start)
	kv.lineEnd = lineEnd(data, kv.end)
	v := n.Value()
	switch v.Kind {
	case unstable.String:
		kv.str = string(v.Data)
	case unstable.Array:
		for c := v.Children(); c.Next(); {
			if e := c.Node(); e.Kind == unstable.String {
				kv.items = append(kv.items, string(data[e.Raw.Offset:e.Raw.Offset+e.Raw.Length]))
			} else if e.Kind != unstable.Comment && kv.bad == "" {
				kv.bad = "want an array of strings, got an array holding " + tomlKind(e.Kind)
			}
		}
	case unstable.InlineTable:
		for c := v.Children(); c.Next(); {
			e := c.Node()
			if e.Kind != unstable.KeyValue {
				continue
			}
			parts, _, _ := keyParts(e.Key())
			ev := e.Value()
			if ev.Kind != unstable.String && kv.bad == "" {
				kv.bad = fmt.Sprintf("%s: want a string, got %s", strings.Join(parts, "."), tomlKind(ev.Kind))
			}
			kv.names = append(kv.names, strings.Join(parts, "."))
			kv.items = append(kv.items, string(data[ev.Raw.Offset:ev.Raw.Offset+ev.Raw.Length]))
		}
	}
	return kv
}

// tomlValue decodes a string as written in TOML.
func tomlValue(raw string) (string, error) {
	var p unstable.Parser
	p.Reset([]byte("V = " + raw))
	if p.NextExpression() {
		if v := p.Expression().Value(); v.Kind == unstable.String {
			return string(v.Data), nil
		}
	}
	return "", fmt.Errorf("%s is not a string", raw)
}

// tomlKind names a value's kind for messages.
func tomlKind(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "a string"
	case unstable.Bool:
		return "a boolean"
	case unstable.Integer, unstable.Float:
		return "a number"
	case unstable.Array:
		return "an array"
	case unstable.InlineTable, unstable.Table:
		return "a table"
	}
	return "a date"
}

// lineStart is the start of the line holding data[off].
func lineStart(data []byte, off int) int { return bytes.LastIndexByte(data[:off], '\n') + 1 }

// lineEnd is the end of the line holding data[off], before its newline.
func lineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		end := off + i
		if end > off && data[end-1] == '\r' {
			end--
		}
		return end
	}
	return len(data)
}

func skipSpaceTOML(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	return i
}

// offsetIn is where part, a slice of data, starts; 0 when it is not one.
func offsetIn(data, part []byte) int {
	if cap(part) > cap(data) {
		return 0
	}
	off := cap(data) - cap(part)
	if off > len(data) {
		return len(data)
	}
	return off
}

// position is the line and column (in characters) of data[off].
func position(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return 1 + bytes.Count(data[:off], []byte("\n")), 1 + utf8.RuneCount(data[start:off])
}
