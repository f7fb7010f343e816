package hostedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpsh/mcpsh/config"
)

// dialect is what rewriting an entry needs to know of a host's JSON.
type dialect struct {
	// top is the key that holds the servers.
	top string
	// urlKeys name a remote server's URL, the one that wins first.
	urlKeys []string
	// keepType: the host reads "type": "stdio", so an entry's type is set
	// to it; otherwise a remote entry's type is taken out. addType: the
	// host wants a type, so one is added where the entry has none.
	keepType, addType bool
}

// dialects follow config's (config/hosts.go), where each names the host's
// documentation. Gemini CLI's type knows only its remote transports and
// Windsurf and Claude Desktop read none, so a stdio entry goes without.
var dialects = map[config.Host]dialect{
	config.HostClaudeCode:    {top: "mcpServers", urlKeys: []string{"url"}, keepType: true, addType: true},
	config.HostClaudeDesktop: {top: "mcpServers", urlKeys: []string{"url"}},
	config.HostCursor:        {top: "mcpServers", urlKeys: []string{"url"}, keepType: true},
	config.HostVSCode:        {top: "servers", urlKeys: []string{"url"}, keepType: true, addType: true},
	config.HostWindsurf:      {top: "mcpServers", urlKeys: []string{"serverUrl", "url"}},
	config.HostGemini:        {top: "mcpServers", urlKeys: []string{"httpUrl", "url"}},
}

// headerEnv is the name of the variable the i-th header (from 1) moves to.
func headerEnv(i int) string { return "MCPSH_HEADER_" + strconv.Itoa(i) }

// jsonString writes s as a JSON string, leaving <, > and & as they are.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// proxyHead is the arguments that start every rewritten entry: mcpsh proxy
// and the name it gives the server.
func proxyHead(as string) []string { return []string{"proxy", "--as", as} }

// jsonEntry is one server's object while it is rewritten: its text and the
// stripped copy (comments and trailing commas blank) at the same offsets.
type jsonEntry struct {
	file, key   string
	text, clean []byte
	ms          []config.Member
	by          map[string]int
	sep         string // what follows a comma between two members: a space, or a newline and the indentation
	edits       []edit
	removed     map[int]bool
}

func (e *jsonEntry) errf(sub, format string, args ...any) error {
	key := e.key
	if sub != "" {
		key += "." + sub
	}
	return &config.Error{File: e.file, Key: key, Msg: fmt.Sprintf(format, args...)}
}

// raw is member name's value as written.
func (e *jsonEntry) raw(name string) string {
	m := e.ms[e.by[name]]
	return string(e.text[m.Start:m.End])
}

// str is member name's value as written, which must be a JSON string.
func (e *jsonEntry) str(name string) (string, error) {
	if v := e.raw(name); strings.HasPrefix(v, `"`) {
		return v, nil
	}
	return "", e.errf(name, "want a string, got %s", kindOf(e.raw(name)))
}

// wrapJSON rewrites the entry text (clean is its stripped copy) so that it
// runs mcpsh proxy, changing only the members that must change.
func wrapJSON(d dialect, file, key string, text, clean []byte, o Options) ([]byte, error) {
	e := &jsonEntry{file: file, key: key, text: text, clean: clean, by: map[string]int{}, removed: map[int]bool{}}
	if k := kindOf(string(clean)); k != "an object" {
		return nil, e.errf("", "want an object, got %s", k)
	}
	ms, _, err := config.Members(clean, 0)
	if err != nil {
		return nil, e.errf("", "%v", err)
	}
	e.ms = ms
	for i, m := range ms {
		if _, dup := e.by[m.Name]; dup {
			return nil, e.errf(m.Name, "duplicate key")
		}
		e.by[m.Name] = i
	}
	e.sep = " "
	if len(ms) > 0 {
		if gap := clean[bytes.IndexByte(clean, '{')+1 : ms[0].NameStart]; bytes.ContainsRune(gap, '\n') {
			e.sep = newline(text) + lineIndent(text, ms[0].NameStart)
		}
	}
	if o.Transport == config.Stdio {
		err = e.stdio(o)
	} else {
		err = e.remote(d, o)
	}
	if err != nil {
		return nil, err
	}
	e.removals()
	return apply(text, e.edits)
}

// stdio keeps the command and its args after "--".
func (e *jsonEntry) stdio(o Options) error {
	ci, ok := e.by["command"]
	if !ok {
		return e.errf("", `has no "command"`)
	}
	cmd, err := e.str("command")
	if err != nil {
		return err
	}
	argv := quoteAll(append(proxyHead(o.As), "--"))
	argv = append(argv, cmd)
	c := e.ms[ci]
	e.edits = append(e.edits, edit{c.Start, c.End, jsonString(o.Command)})
	ai, ok := e.by["args"]
	if !ok {
		e.edits = append(e.edits, edit{c.End, c.End, "," + e.sep + `"args": ` + jsonArray(argv)})
		return nil
	}
	a := e.ms[ai]
	var items []json.RawMessage
	if kindOf(e.raw("args")) != "an array" || json.Unmarshal(e.clean[a.Start:a.End], &items) != nil {
		return e.errf("args", "want an array of strings, got %s", kindOf(e.raw("args")))
	}
	for i, it := range items {
		if !bytes.HasPrefix(it, []byte(`"`)) {
			return e.errf(fmt.Sprintf("args[%d]", i), "want a string, got %s", kindOf(string(it)))
		}
		argv = append(argv, string(it)) // the clean copy's strings are the text's
	}
	e.edits = append(e.edits, edit{a.Start, a.End, jsonArray(argv)})
	return nil
}

// remote turns a URL entry into a stdio one: the URL after --url or --sse,
// each header moved into env and named by --header-env, so no secret is
// in the proxy's argv (which every local user can read).
func (e *jsonEntry) remote(d dialect, o Options) error {
	ui := -1
	for _, k := range d.urlKeys {
		if i, ok := e.by[k]; ok {
			if ui < 0 {
				ui = i
			} else {
				e.removed[i] = true
			}
		}
	}
	if ui < 0 {
		return e.errf("", `has no %q`, d.urlKeys[0])
	}
	u, err := e.str(e.ms[ui].Name)
	if err != nil {
		return err
	}
	flag := "--url"
	if o.Transport == config.SSE {
		flag = "--sse"
	}
	argv := append(quoteAll(append(proxyHead(o.As), flag)), u)
	moved, err := e.headers()
	if err != nil {
		return err
	}
	for _, h := range moved {
		argv = append(argv, jsonString("--header-env"), jsonString(h.name+"="+h.env))
	}
	head := ""
	if ti, ok := e.by["type"]; ok {
		t := e.ms[ti]
		if d.keepType {
			e.edits = append(e.edits, edit{t.Start, t.End, `"stdio"`})
		} else {
			e.removed[ti] = true
		}
	} else if d.addType {
		head = `"type": "stdio",` + e.sep
	}
	for _, k := range []string{"command", "args"} { // read only with "type"; the new ones replace them
		if i, ok := e.by[k]; ok {
			e.removed[i] = true
		}
	}
	m := e.ms[ui]
	e.edits = append(e.edits, edit{m.NameStart, m.End,
		head + `"command": ` + jsonString(o.Command) + "," + e.sep + `"args": ` + jsonArray(argv)})
	return nil
}

// movedHeader is a header that moves into env.
type movedHeader struct {
	name, env string
}

// headers moves "headers" into "env": renamed in place when the entry has
// no env (each header's name becomes its variable's, its value and layout
// stay), else added to the end of env.
func (e *jsonEntry) headers() ([]movedHeader, error) {
	hi, ok := e.by["headers"]
	if !ok {
		return nil, nil
	}
	h := e.ms[hi]
	if kindOf(e.raw("headers")) != "an object" {
		return nil, e.errf("headers", "want an object, got %s", kindOf(e.raw("headers")))
	}
	hms, _, err := config.Members(e.clean, h.Start)
	if err != nil {
		return nil, e.errf("headers", "%v", err)
	}
	taken := map[string]bool{}
	var env []config.Member
	ei, hasEnv := e.by["env"]
	if hasEnv {
		if kindOf(e.raw("env")) != "an object" {
			return nil, e.errf("env", "want an object, got %s", kindOf(e.raw("env")))
		}
		if env, _, err = config.Members(e.clean, e.ms[ei].Start); err != nil {
			return nil, e.errf("env", "%v", err)
		}
		for _, m := range env {
			taken[m.Name] = true
		}
	}
	var moved []movedHeader
	n := 0
	var pairs []string
	for _, m := range hms {
		if v := string(e.text[m.Start:m.End]); !strings.HasPrefix(v, `"`) {
			return nil, e.errf("headers."+m.Name, "want a string, got %s", kindOf(v))
		}
		n++
		for taken[headerEnv(n)] {
			n++
		}
		mh := movedHeader{name: m.Name, env: headerEnv(n)}
		moved = append(moved, mh)
		if !hasEnv {
			e.edits = append(e.edits, edit{m.NameStart, nameEnd(e.text, m.NameStart), jsonString(mh.env)})
		}
		pairs = append(pairs, jsonString(mh.env)+": "+string(e.text[m.Start:m.End]))
	}
	if !hasEnv {
		e.edits = append(e.edits, edit{h.NameStart, nameEnd(e.text, h.NameStart), `"env"`})
		return moved, nil
	}
	e.removed[hi] = true
	if len(pairs) == 0 {
		return moved, nil
	}
	em := e.ms[ei]
	if len(env) == 0 {
		e.edits = append(e.edits, edit{em.Start, em.End, "{" + strings.Join(pairs, ", ") + "}"})
		return moved, nil
	}
	sep := " "
	if bytes.ContainsRune(e.clean[em.Start:env[0].NameStart], '\n') {
		sep = newline(e.text) + lineIndent(e.text, env[0].NameStart)
	}
	last := env[len(env)-1]
	e.edits = append(e.edits, edit{last.End, last.End, "," + sep + strings.Join(pairs, ","+sep)})
	return moved, nil
}

// removals takes out the members marked removed with their commas: up to
// the next member's name while a member that stays follows, else from the
// end of the member before. Ranges of neighbours meet but never overlap.
func (e *jsonEntry) removals() {
	for k := range e.ms {
		if !e.removed[k] {
			continue
		}
		stays := false
		for j := k + 1; j < len(e.ms); j++ {
			stays = stays || !e.removed[j]
		}
		switch {
		case stays:
			e.edits = append(e.edits, edit{e.ms[k].NameStart, e.ms[k+1].NameStart, ""})
		case k > 0:
			e.edits = append(e.edits, edit{e.ms[k-1].End, e.ms[k].End, ""})
		default:
			e.edits = append(e.edits, edit{e.ms[k].NameStart, e.ms[k].End, ""})
		}
	}
}

// nameEnd is the end of the JSON string whose quote is text[i].
func nameEnd(text []byte, i int) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(text)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = jsonString(s)
	}
	return out
}

// jsonArray writes items, JSON already, as one line.
func jsonArray(items []string) string { return "[" + strings.Join(items, ", ") + "]" }

// kindOf names the JSON type of a value's text, for messages.
func kindOf(v string) string {
	v = strings.TrimLeft(v, " \t\r\n")
	if v == "" {
		return "nothing"
	}
	switch v[0] {
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

// Snippet is the rewritten entry as a person would paste it: for JSON
// hosts under the host's key for servers ({"mcpServers": {"github": ...}},
// VS Code's "servers"), for Codex its table.
func Snippet(p *Plan) []byte {
	if p.Host == config.HostCodex {
		return append(bytes.Clone(p.Written), '\n')
	}
	top := dialects[p.Host].top
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  %s: {\n    %s: ", jsonString(top), jsonString(p.Name()))
	b.Write(reindent(p.Written, p.Indent, "    "))
	b.WriteString("\n  }\n}\n")
	return b.Bytes()
}
