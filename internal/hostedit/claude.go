package hostedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpsh/mcpsh/config"
)

// A project's .mcp.json is the repository's, shared with everyone who
// clones it, so mcpsh does not rewrite it. Claude Code prefers a local
// server to a project one of the same name (code.claude.com/docs/en/mcp,
// "Scope hierarchy and precedence"), and keeps local servers in
// ~/.claude.json under projects[DIR].mcpServers; so the route through mcpsh
// is a local entry there, made from the project's. Claude Code writes that
// file with JSON.stringify(…, null, 2), which the entry follows.

// Override adds to claudeJSON, the text of ~/.claude.json (file names it),
// a local entry for the project folder dir that runs the server called name
// through mcpsh, made from its entry in the project's .mcp.json (source,
// the text of sourceFile). The folder's key is matched as written, or with
// forward slashes as Claude Code writes it on Windows; missing objects are
// made.
func Override(file string, claudeJSON []byte, dir, name, sourceFile string, source []byte, o Options) (*Plan, error) {
	m, err := config.EntrySpan(sourceFile, source, []string{"mcpServers", name})
	if err != nil {
		return nil, err
	}
	srcClean, _ := config.StripJSONC(sourceFile, source) // EntrySpan has read it
	d := dialects[config.HostClaudeCode]
	value, err := wrapJSON(d, sourceFile, "mcpServers."+name, source[m.Start:m.End], srcClean[m.Start:m.End], o)
	if err != nil {
		return nil, err
	}
	sourceIndent := lineIndent(source, m.Start)
	if _, err := config.EntrySpan(file, claudeJSON, []string{"projects"}); err != nil && !errors.Is(err, config.ErrNoEntry) {
		return nil, err // the file does not parse, or projects is not an object
	}
	clean, _ := config.StripJSONC(file, claudeJSON)
	dirKey := filepath.ToSlash(dir) // as Claude Code writes a new one
	if _, err := config.EntrySpan(file, claudeJSON, []string{"projects", dir}); err == nil {
		dirKey = dir
	}
	path := []string{"projects", dirKey, "mcpServers", name}
	// The deepest object of the path that is there, and what is missing below it.
	obj := config.Member{Start: 0, End: len(clean)}
	have := 0
	for have < len(path) {
		m, err := config.EntrySpan(file, claudeJSON, path[:have+1])
		if errors.Is(err, config.ErrNoEntry) {
			break
		}
		if err != nil {
			return nil, err
		}
		obj, have = m, have+1
	}
	if have == len(path) {
		return nil, &config.Error{File: file, Key: config.KeyString(path), Msg: "already holds a local server of that name"}
	}
	if have > 0 && kindOf(string(clean[obj.Start:obj.End])) != "an object" {
		return nil, &config.Error{File: file, Key: config.KeyString(path[:have]), Msg: "want an object, got " + kindOf(string(clean[obj.Start:obj.End]))}
	}
	ms, _, err := config.Members(clean, obj.Start)
	if err != nil {
		return nil, &config.Error{File: file, Key: config.KeyString(path[:have]), Msg: err.Error()}
	}
	nl := newline(claudeJSON)
	unit := indentUnit(claudeJSON, clean)
	objIndent := lineIndent(claudeJSON, skipWS(clean, obj.Start))
	memberIndent := objIndent + unit
	multiline := true
	if len(ms) > 0 {
		gap := clean[skipWS(clean, obj.Start)+1 : ms[0].NameStart]
		multiline = bytes.ContainsRune(gap, '\n')
		memberIndent = lineIndent(claudeJSON, ms[0].NameStart)
	}
	// The member to insert, nesting the missing objects; the entry's value
	// is where mark is.
	const mark = "\x00"
	member := nest(path[have:], memberIndent, unit, nl)
	var ins string
	var off int
	switch {
	case len(ms) == 0:
		off = skipWS(clean, obj.Start) + 1 // just inside "{"
		ins = nl + memberIndent + member + nl + objIndent
	case multiline:
		off = ms[len(ms)-1].End
		ins = "," + nl + memberIndent + member
	default:
		off = ms[len(ms)-1].End
		ins = ", " + member
	}
	before, after, _ := strings.Cut(ins, mark)
	keyIndent := indentAt(before)
	if !strings.Contains(before, "\n") {
		keyIndent = lineIndent(claudeJSON, off)
	}
	v := reindent(value, sourceIndent, keyIndent)
	text := before + string(v) + after
	p := &Plan{Host: config.HostClaudeCode, File: file, Path: path, Old: claudeJSON, Start: off + len(before),
		Written: v, Prefix: []byte(before), Suffix: []byte(after), Indent: keyIndent}
	p.New = splice(claudeJSON, off, off, []byte(text))
	if err := p.utf8(); err != nil {
		return nil, err
	}
	return p, p.relocate()
}

// nest writes "k0": {"k1": … mark …} for keys, each object on lines of its
// own, indent being the first key's.
func nest(keys []string, indent, unit, nl string) string {
	if len(keys) == 1 {
		return jsonString(keys[0]) + ": \x00"
	}
	inner := indent + unit
	return jsonString(keys[0]) + ": {" + nl + inner + nest(keys[1:], inner, unit, nl) + nl + indent + "}"
}

// indentAt is the indentation of the last line of s.
func indentAt(s string) string {
	line := s[strings.LastIndexByte(s, '\n')+1:]
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// indentUnit is the file's indentation step: its first member's indent
// (Claude Code indents by two spaces).
func indentUnit(data, clean []byte) string {
	ms, _, err := config.Members(clean, 0)
	if err != nil || len(ms) == 0 {
		return "  "
	}
	if u := lineIndent(data, ms[0].NameStart); u != "" && bytes.ContainsRune(clean[:ms[0].NameStart], '\n') {
		return u
	}
	return "  "
}

// skipWS skips JSON whitespace.
func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// ClaudeHint is the Claude Code command that makes the same entry, for
// when Claude Code, running, would write its own copy of ~/.claude.json
// over mcpsh's edit: claude mcp add-json NAME 'JSON' -s local (user for a
// user entry).
func ClaudeHint(p *Plan) string {
	scope := "user"
	if len(p.Path) == 4 {
		scope = "local"
	}
	compact := new(bytes.Buffer)
	clean, err := config.StripJSONC(p.File, p.Written)
	if err != nil || json.Compact(compact, clean) != nil {
		return ""
	}
	return fmt.Sprintf("claude mcp add-json %s %s -s %s", shellQuote(p.Name()), shellQuote(compact.String()), scope)
}

// shellQuote quotes s for a POSIX shell when it needs it, so a hint can be
// pasted.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
