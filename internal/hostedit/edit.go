// Package hostedit rewrites one server's entry in another host's config
// file so that the host runs it through `mcpsh proxy`, and puts it back
// (mcpsh proxy config --write and --undo).
//
// An edit is a splice: the entry's bytes are found in the file as written
// (config.EntrySpan for JSON and JSONC, go-toml's unstable parser for
// Codex's TOML), the new entry is made from the old one by changing only
// the members that must change, and everything else in the file, comments
// and formatting included, stays byte for byte. The rewritten entry keeps
// the server's own command after "--" (or its URL after --url), so the host
// still expands its ${VAR}s, envFile and ${input:}s as before. What is
// pure over bytes is here; the command reads, asks and writes
// (internal/cli/proxyconfig.go) with Check, Diff, Snapshot and Store.
package hostedit

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/config"
)

// Options say what the rewritten entry runs.
type Options struct {
	// Command is the mcpsh the host starts, best an absolute path: hosts
	// started from a desktop often lack the shell's PATH.
	Command string
	// As is the entry's --as: the server's HOST:NAME, which names it to
	// mcpsh's trust, rules and log.
	As string
	// Transport is the server's, as config reads it: a stdio entry keeps
	// its command after "--"; a remote one becomes --url (http) or --sse.
	Transport config.Transport
}

// Plan is one edit of one file: its whole text before and after, and the
// entry's bytes before and after.
type Plan struct {
	Host config.Host
	File string
	// Path is the entry's key path in File: mcpServers, github; for Codex
	// mcp_servers, NAME.
	Path []string
	Old  []byte
	New  []byte
	// Original is the entry's text before the edit, at Start in Old;
	// empty when the edit adds the entry (Claude Code's local override).
	Original []byte
	// Written is the entry's text after the edit, at Start in New.
	Written []byte
	Start   int
	// Prefix and Suffix are what an added entry brought around it in New
	// (its name, a comma, the objects made to hold it), so undoing it can
	// take out exactly what was put in.
	Prefix, Suffix []byte
	// Indent is the indentation of the line the entry's key is on.
	Indent string
}

// Key is the entry's key path as messages write it.
func (p *Plan) Key() string { return config.KeyString(p.Path) }

// Name is the server's name: the last key of the path.
func (p *Plan) Name() string { return p.Path[len(p.Path)-1] }

// Path is where a host keeps the server called name in a file of scope
// (config.Origin.Scope): mcpServers.NAME, VS Code's servers.NAME, Codex's
// mcp_servers.NAME, or ~/.claude.json's projects[DIR].mcpServers.NAME for
// Claude Code's local servers (project being DIR, as written in the file).
func Path(h config.Host, scope config.Scope, project, name string) []string {
	if h == config.HostCodex {
		return []string{"mcp_servers", name}
	}
	if h == config.HostClaudeCode && scope == config.ScopeLocal {
		return []string{"projects", project, "mcpServers", name}
	}
	return []string{dialects[h].top, name}
}

// Wrap rewrites the entry at path in data, a host's file (file names it in
// errors), so that it runs mcpsh proxy. A file that does not parse, an
// entry that is missing, not an object or not what o.Transport says comes
// back as a *config.Error naming the file and the key.
func Wrap(h config.Host, file string, data []byte, path []string, o Options) (*Plan, error) {
	if _, ok := dialects[h]; !ok && h != config.HostCodex {
		return nil, &config.Error{File: file, Msg: fmt.Sprintf("mcpsh does not edit %s's files", h)}
	}
	p := &Plan{Host: h, File: file, Path: path, Old: data}
	var start, end int
	var written []byte
	if h == config.HostCodex {
		te, err := locateCodex(file, data, path[1])
		if err != nil {
			return nil, err
		}
		if written, err = wrapCodex(file, data, te, path, o); err != nil {
			return nil, err
		}
		start, end = te.start, te.end
	} else {
		m, err := config.EntrySpan(file, data, path)
		if err != nil {
			return nil, err
		}
		clean, _ := config.StripJSONC(file, data) // EntrySpan has read it
		start, end = m.Start, m.End
		if written, err = wrapJSON(dialects[h], file, config.KeyString(path), data[start:end], clean[start:end], o); err != nil {
			return nil, err
		}
	}
	p.Start, p.Original, p.Written = start, bytes.Clone(data[start:end]), written
	p.Indent = lineIndent(data, start)
	p.New = splice(data, start, end, written)
	if err := p.utf8(); err != nil {
		return nil, err
	}
	return p, p.relocate()
}

// relocate checks that the entry is found in the new text exactly where it
// was written, as --undo will look for it.
func (p *Plan) relocate() error {
	var start, end int
	if p.Host == config.HostCodex {
		te, err := locateCodex(p.File, p.New, p.Name())
		if err != nil {
			return fmt.Errorf("mcpsh's edit of %s would leave %s unreadable (%v); nothing written", p.File, p.Key(), err)
		}
		start, end = te.start, te.end
	} else {
		m, err := config.EntrySpan(p.File, p.New, p.Path)
		if err != nil {
			return fmt.Errorf("mcpsh's edit of %s would leave %s unreadable (%v); nothing written", p.File, p.Key(), err)
		}
		start, end = m.Start, m.End
	}
	if start != p.Start || end != p.Start+len(p.Written) {
		return fmt.Errorf("mcpsh's edit of %s would not leave %s where it wrote it; nothing written", p.File, p.Key())
	}
	return nil
}

// utf8 refuses an entry that is not UTF-8: its record keeps it as text, and
// neither JSON nor TOML allows anything else.
func (p *Plan) utf8() error {
	if !utf8.Valid(p.Original) || !utf8.Valid(p.Written) {
		return &config.Error{File: p.File, Key: p.Key(), Msg: "holds bytes that are not UTF-8"}
	}
	return nil
}

// splice is data with data[start:end] replaced by text, in a new slice.
func splice(data []byte, start, end int, text []byte) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(text))
	out = append(out, data[:start]...)
	out = append(out, text...)
	return append(out, data[end:]...)
}

// edit replaces text[start:end] with text new; start == end inserts.
type edit struct {
	start, end int
	new        string
}

// apply makes the edits to text. They must not overlap; an insertion and
// a replacement that start at the same place are applied in that order.
func apply(text []byte, edits []edit) ([]byte, error) {
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.end - b.end
	})
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at || e.end < e.start || e.end > len(text) {
			return nil, fmt.Errorf("edits overlap at byte %d", e.start) // a bug of ours, caught before anything is written
		}
		out.Write(text[at:e.start])
		out.WriteString(e.new)
		at = e.end
	}
	out.Write(text[at:])
	return out.Bytes(), nil
}

// lineIndent is the spaces and tabs that start the line holding data[off].
func lineIndent(data []byte, off int) string {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// newline is the line break the text uses.
func newline(text []byte) string {
	if bytes.Contains(text, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// reindent moves text, whose first line follows a key indented from, under
// a key indented to: every later line that starts with from starts with to
// instead. JSON strings hold no raw newline, so only layout moves.
func reindent(text []byte, from, to string) []byte {
	if from == to || !bytes.Contains(text, []byte("\n")) {
		return text
	}
	lines := strings.SplitAfter(string(text), "\n")
	for i := 1; i < len(lines); i++ {
		if rest, ok := strings.CutPrefix(lines[i], from); ok {
			lines[i] = to + rest
		}
	}
	return []byte(strings.Join(lines, ""))
}
