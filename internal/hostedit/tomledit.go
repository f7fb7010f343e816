package hostedit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/mcpsh/mcpsh/config"
)

// The rewrite of a Codex entry found by locateCodex (toml.go): keys
// replaced, added and taken out as byte edits of the entry's text.

// codexEdit is one rewrite of an entry in progress.
type codexEdit struct {
	file, key string
	data      []byte
	te        *tomlEntry
	nl        string
	edits     []edit
	// tail is a sub-table added after the entry's last line.
	tail string
}

func (c *codexEdit) errf(sub, format string, args ...any) error {
	return &config.Error{File: c.file, Key: c.key + "." + sub, Msg: fmt.Sprintf(format, args...)}
}

// find is the entry's own key (not a sub-table's) named key, or nil.
func (c *codexEdit) find(key ...string) *tomlKV {
	for i := range c.te.kvs {
		if c.te.kvs[i].is(key...) {
			return &c.te.kvs[i]
		}
	}
	return nil
}

// wrapCodex rewrites the entry te of data so that it runs mcpsh proxy, and
// returns its new text.
func wrapCodex(file string, data []byte, te *tomlEntry, path []string, o Options) ([]byte, error) {
	c := &codexEdit{file: file, key: config.KeyString(path), data: data, te: te, nl: newline(data)}
	var err error
	if o.Transport == config.Stdio {
		err = c.stdio(o)
	} else {
		err = c.remote(o)
	}
	if err != nil {
		return nil, err
	}
	// The edits are made on the entry's text alone.
	for i := range c.edits {
		c.edits[i].start -= te.start
		c.edits[i].end -= te.start
	}
	out, err := apply(data[te.start:te.end], c.edits)
	// A line taken out at the end leaves its newline, which the entry's
	// span never holds (the newline after the entry is the file's), and the
	// comments above it, which were about it: the entry ends at its last key.
	for {
		out = bytes.TrimRight(out, " \t\r\n")
		last := out[bytes.LastIndexByte(out, '\n')+1:]
		if !bytes.HasPrefix(bytes.TrimLeft(last, " \t"), []byte("#")) {
			break
		}
		out = out[:len(out)-len(last)]
	}
	return append(out, c.tail...), err
}

// str is a key's value as written, which must be a string.
func (c *codexEdit) str(kv *tomlKV, name string) (string, error) {
	if kv.kind != unstable.String {
		return "", c.errf(name, "want a string, got %s", tomlKind(kv.kind))
	}
	return string(c.data[kv.vstart:kv.end]), nil
}

// stdio keeps the command and its args after "--".
func (c *codexEdit) stdio(o Options) error {
	cmd := c.find("command")
	if cmd == nil {
		return c.errf("command", "missing")
	}
	raw, err := c.str(cmd, "command")
	if err != nil {
		return err
	}
	argv := append(tomlQuoteAll(append(proxyHead(o.As), "--")), raw)
	c.edits = append(c.edits, edit{cmd.vstart, cmd.end, tomlString(o.Command)})
	args := c.find("args")
	if args == nil {
		c.addAfter(cmd, "args", tomlArray(argv))
		return nil
	}
	if args.kind != unstable.Array || args.bad != "" {
		return c.errf("args", "want an array of strings, got %s", tomlKind(args.kind))
	}
	c.edits = append(c.edits, edit{args.vstart, args.end, tomlArray(append(argv, args.items...))})
	return nil
}

// addAfter adds key = value after kv: on a line of its own in a table, or
// after a comma inline.
func (c *codexEdit) addAfter(kv *tomlKV, key, value string) {
	if c.te.inline {
		c.edits = append(c.edits, edit{kv.end, kv.end, ", " + key + " = " + value})
		return
	}
	indent := lineIndent(c.data, kv.start)
	c.edits = append(c.edits, edit{kv.lineEnd, kv.lineEnd, c.nl + indent + key + " = " + value})
}

// remote turns a URL entry into a stdio one, as for JSON: static
// http_headers move into env and are named by --header-env; the variables
// of env_http_headers and bearer_token_env_var are named by --header-env and
// --bearer-env and added to env_vars, so Codex passes them on.
func (c *codexEdit) remote(o Options) error {
	u := c.find("url")
	if u == nil {
		return c.errf("url", "missing")
	}
	raw, err := c.str(u, "url")
	if err != nil {
		return err
	}
	argv := append(tomlQuoteAll(append(proxyHead(o.As), "--url")), raw)
	type header struct{ name, value string }
	var static, fromEnv []header
	var bearer string
	var drop []*tomlKV
	var dropSubs []int
	for i := range c.te.kvs {
		kv := &c.te.kvs[i]
		switch {
		case kv.is("command"), kv.is("args"):
			drop = append(drop, kv) // only with url; the new ones replace them
		case kv.key[0] == "http_headers" || kv.key[0] == "env_http_headers":
			list := &static
			if kv.key[0] == "env_http_headers" {
				list = &fromEnv
			}
			switch {
			case len(kv.key) == 1 && kv.kind == unstable.InlineTable && kv.bad == "":
				for j, n := range kv.names {
					*list = append(*list, header{n, kv.items[j]})
				}
			case len(kv.key) == 2 && kv.kind == unstable.String:
				*list = append(*list, header{kv.key[1], string(c.data[kv.vstart:kv.end])})
			case kv.bad != "":
				return c.errf(strings.Join(kv.key, "."), "%s", kv.bad)
			default:
				return c.errf(strings.Join(kv.key, "."), "want a table of strings, got %s", tomlKind(kv.kind))
			}
			if !kv.sub {
				drop = append(drop, kv)
			}
		case kv.is("bearer_token_env_var"):
			if kv.kind != unstable.String {
				return c.errf("bearer_token_env_var", "want a variable's name, got %s", tomlKind(kv.kind))
			}
			bearer = kv.str
			drop = append(drop, kv)
		}
	}
	for i, s := range c.te.subs {
		if s.name == "http_headers" || s.name == "env_http_headers" {
			dropSubs = append(dropSubs, i)
		}
	}
	var passVars []string
	for _, h := range fromEnv {
		v, err := tomlValue(h.value)
		if err != nil {
			return c.errf("env_http_headers."+h.name, "want a variable's name: %v", err)
		}
		argv = append(argv, tomlString("--header-env"), tomlString(h.name+"="+v))
		passVars = append(passVars, v)
	}
	if bearer != "" {
		argv = append(argv, tomlString("--bearer-env"), tomlString(bearer))
		passVars = append(passVars, bearer)
	}
	taken := c.envNames()
	var pairs []string
	n := 0
	for _, h := range static {
		n++
		for taken[headerEnv(n)] {
			n++
		}
		argv = append(argv, tomlString("--header-env"), tomlString(h.name+"="+headerEnv(n)))
		pairs = append(pairs, headerEnv(n)+" = "+h.value)
	}
	// url's place takes command and args, and env_vars if it is new.
	sep := c.nl + lineIndent(c.data, u.start)
	if c.te.inline {
		sep = ", "
	}
	repl := "command = " + tomlString(o.Command) + sep + "args = " + tomlArray(argv)
	if ev := c.find("env_vars"); ev != nil && len(passVars) > 0 {
		if ev.kind != unstable.Array || ev.bad != "" {
			return c.errf("env_vars", "want an array of strings, got %s", tomlKind(ev.kind))
		}
		if err := c.appendItems(ev, tomlQuoteAll(passVars)); err != nil {
			return err
		}
	} else if len(passVars) > 0 {
		repl += sep + "env_vars = " + tomlArray(tomlQuoteAll(passVars))
	}
	c.edits = append(c.edits, edit{u.start, u.end, repl})
	c.dropKVs(drop)
	c.dropSubs(dropSubs)
	if len(pairs) > 0 {
		return c.addEnv(pairs)
	}
	return nil
}

// envNames are the variables the entry's env sets already.
func (c *codexEdit) envNames() map[string]bool {
	taken := map[string]bool{}
	for _, kv := range c.te.kvs {
		switch {
		case kv.key[0] != "env":
		case len(kv.key) == 2:
			taken[kv.key[1]] = true
		case kv.kind == unstable.InlineTable:
			for _, n := range kv.names {
				taken[n] = true
			}
		}
	}
	return taken
}

// addEnv adds KEY = "value" pairs to the entry's env, wherever it is: its
// sub-table, an inline table, dotted env.KEY keys, or a new sub-table at
// the entry's end.
func (c *codexEdit) addEnv(pairs []string) error {
	var dotted, inline, inSub *tomlKV
	subAt := -1
	for i := range c.te.kvs {
		kv := &c.te.kvs[i]
		switch {
		case kv.key[0] != "env":
		case kv.sub:
			inSub = kv
		case len(kv.key) == 2:
			dotted = kv
		case kv.kind == unstable.InlineTable:
			inline = kv
		default:
			return c.errf("env", "want a table, got %s", tomlKind(kv.kind))
		}
	}
	for i, s := range c.te.subs {
		if s.name == "env" {
			subAt = i
		}
	}
	switch {
	case inline != nil:
		return c.appendItems(inline, pairs)
	case dotted != nil:
		indent := lineIndent(c.data, dotted.start)
		for _, p := range pairs {
			c.edits = append(c.edits, edit{dotted.lineEnd, dotted.lineEnd, c.nl + indent + "env." + p})
		}
	case inSub != nil || subAt >= 0:
		at := c.te.subs[subAt].lastLine
		for _, p := range pairs {
			c.edits = append(c.edits, edit{at, at, c.nl + p})
		}
	case c.te.inline:
		last := c.te.kvs[len(c.te.kvs)-1].end
		c.edits = append(c.edits, edit{last, last, ", env = { " + strings.Join(pairs, ", ") + " }"})
	default:
		c.tail = c.nl + c.nl + "[" + c.te.header + ".env]"
		for _, p := range pairs {
			c.tail += c.nl + p
		}
	}
	return nil
}

// appendItems adds items before the closing bracket of kv's array or
// inline table. One with comments inside is refused: where the last item
// ends is not worth guessing.
func (c *codexEdit) appendItems(kv *tomlKV, items []string) error {
	closing := kv.end - 1
	inner := bytes.TrimSpace(c.data[kv.vstart+1 : closing])
	if bytes.ContainsRune(inner, '#') {
		return c.errf(strings.Join(kv.key, "."), "has comments inside; mcpsh adds to it only when it has none")
	}
	text := strings.Join(items, ", ")
	switch {
	case len(inner) == 0 && kv.kind == unstable.InlineTable:
		c.edits = append(c.edits, edit{kv.vstart + 1, closing, " " + text + " "})
	case len(inner) == 0:
		c.edits = append(c.edits, edit{kv.vstart + 1, closing, text})
	default:
		end := kv.vstart + 1 + bytes.LastIndex(c.data[kv.vstart+1:closing], inner[len(inner)-1:]) + 1
		if inner[len(inner)-1] == ',' { // a trailing comma
			c.edits = append(c.edits, edit{end, end, " " + text})
		} else {
			c.edits = append(c.edits, edit{end, end, ", " + text})
		}
	}
	return nil
}

// dropKVs takes keys out: whole lines in a table, with a comma inline.
func (c *codexEdit) dropKVs(drop []*tomlKV) {
	if !c.te.inline {
		for _, kv := range drop {
			end := min(kv.lineEnd+len(c.nl), c.te.end)
			c.edits = append(c.edits, edit{kv.lineStart, end, ""})
		}
		return
	}
	gone := map[int]bool{}
	for _, kv := range drop {
		for i := range c.te.kvs {
			if &c.te.kvs[i] == kv {
				gone[i] = true
			}
		}
	}
	kvs := c.te.kvs
	for k := range kvs {
		if !gone[k] {
			continue
		}
		stays := false
		for j := k + 1; j < len(kvs); j++ {
			stays = stays || !gone[j]
		}
		switch {
		case stays:
			c.edits = append(c.edits, edit{kvs[k].start, kvs[k+1].start, ""})
		case k > 0:
			c.edits = append(c.edits, edit{kvs[k-1].end, kvs[k].end, ""})
		default:
			c.edits = append(c.edits, edit{kvs[k].start, kvs[k].end, ""})
		}
	}
}

// dropSubs takes sub-tables out, each from its header's line to the next
// sub-table's header, or to the entry's end.
func (c *codexEdit) dropSubs(idx []int) {
	for _, k := range idx {
		end := c.te.end
		if k+1 < len(c.te.subs) {
			end = c.te.subs[k+1].headerLine
		}
		c.edits = append(c.edits, edit{c.te.subs[k].headerLine, end, ""})
	}
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlQuoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = tomlString(s)
	}
	return out
}

// tomlArray writes items, TOML already, as one line.
func tomlArray(items []string) string { return "[" + strings.Join(items, ", ") + "]" }
