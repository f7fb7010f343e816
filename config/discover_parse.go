package config

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/policy"
)

// hostParser reads one file of another host's with the parser mcpsh's own
// file uses (JSONC, positions, expansion, what is secret), in that host's
// dialect. A server whose entry is malformed comes back with its Err set,
// so the rest of the file is still used.
type hostParser struct {
	*parser
	origin Origin
	// home is the user's folder, for ${userHome} and relative paths.
	home string
	// workspace is the folder ${workspaceFolder} stands for; "" when none.
	workspace string
}

func newHostParser(host Host, scope Scope, path, project, workspace, home string, getenv func(string) (string, bool)) *hostParser {
	d := dialects[host]
	f := d.forms
	if f.prefixed { // Cursor and VS Code define these; Windsurf only ${env:}
		f.predefined = map[string]string{"pathSeparator": string(filepath.Separator), "/": string(filepath.Separator)}
		if host != HostWindsurf {
			if home != "" {
				f.predefined["userHome"] = home
			}
			if workspace != "" {
				f.predefined["workspaceFolder"] = workspace
				f.predefined["workspaceFolderBasename"] = filepath.Base(workspace)
			}
		} else {
			f.predefined = nil
		}
	}
	return &hostParser{
		parser:    &parser{file: path, getenv: getenv, d: d, f: &f},
		origin:    Origin{Host: host, Scope: scope, File: path, Project: project},
		home:      home,
		workspace: workspace,
	}
}

// file parses a whole JSON file whose servers are under the dialect's top
// keys. It returns the members of the top level for the host's other keys
// (Gemini's "mcp", Claude Code's "projects").
func (hp *hostParser) parseFile(data []byte) ([]*Server, []member, error) {
	raw, err := hp.decode(data)
	if err != nil || raw == nil {
		return nil, nil, err
	}
	top, err := hp.object("", raw, func(k string) bool { return false })
	if err != nil {
		return nil, nil, err
	}
	var out []*Server
	for _, m := range top {
		for _, k := range hp.d.top {
			if m.name != k || kind(m.value) == "null" {
				continue
			}
			servers, err := hp.servers(k, m.value)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, servers...)
		}
	}
	return out, top, nil
}

// servers parses the object of servers raw, found at key.
func (hp *hostParser) servers(key string, raw json.RawMessage) ([]*Server, error) {
	ms, err := hp.object(key, raw, nil)
	if err != nil {
		return nil, err
	}
	var out []*Server
	for _, sm := range ms {
		if sm.name == "" {
			continue // no -s could name it
		}
		k := key + "." + sm.name
		s, err := hp.server(k, sm.name, sm.value)
		if err != nil {
			// Trusted, as its host trusts it, like every server found.
			s = &Server{Name: sm.name, Key: k, Err: err, Trust: policy.Trusted}
		}
		held := s.Origin.Held // "disabled" is read with the entry
		s.Origin = hp.origin
		s.Origin.Held = held
		out = append(out, s)
	}
	return out, nil
}

// hostServer finishes an entry of another host's file: the host's names
// for a URL, its transport, what starts or reaches the server, and the
// host's own keys mcpsh honours (envFile, disabled, Gemini's timeout).
func (e *entry) hostServer() (*Server, error) {
	d := e.p.d
	e.alias = map[string]string{}
	switch d.host {
	case HostWindsurf:
		e.rename("serverUrl", "url")
	case HostGemini:
		// httpUrl is streamable HTTP; url alone is SSE (mcp-server.md,
		// "Transport selection"), unless a type says otherwise.
		_, typed := e.fields["type"]
		if _, ok := e.fields["httpUrl"]; ok {
			e.rename("httpUrl", "url")
			if !typed {
				e.fields["type"] = json.RawMessage(`"http"`)
			}
		} else if _, ok := e.fields["url"]; ok && !typed {
			if _, cmd := e.fields["command"]; !cmd {
				e.fields["type"] = json.RawMessage(`"sse"`)
			}
		}
	}
	var err error
	if e.srv.Transport, err = e.transport(); err != nil {
		return nil, err
	}
	connect := e.remote
	if e.srv.Transport == Stdio {
		connect = e.stdio
	}
	if err := connect(); err != nil {
		return nil, err
	}
	if e.srv.Transport == Stdio && d.envFile {
		if err := e.envFile(); err != nil {
			return nil, err
		}
	}
	e.unwrapProxy() // after envFile: the proxy's --header-env reads the env the host gives it
	if err := e.disabled(); err != nil {
		return nil, err
	}
	if d.host == HostGemini {
		if err := e.millis("timeout"); err != nil {
			return nil, err
		}
	}
	e.srv.Secrets = tidy(e.secrets)
	return e.srv, nil
}

// rename reads the field from under the name the mcpsh parser knows it by,
// keeping the host's name for messages. The host's name wins when a file
// has both.
func (e *entry) rename(from, to string) {
	if v, ok := e.fields[from]; ok {
		e.fields[to] = v
		delete(e.fields, from)
		e.alias[to] = from
	}
}

// disabled reads "disabled": true, which Cursor's and Windsurf's files use
// to keep a server without starting it.
func (e *entry) disabled() error {
	raw, ok := e.fields["disabled"]
	if !ok {
		return nil
	}
	switch strings.TrimSpace(string(raw)) {
	case "true":
		e.srv.Origin.Held = `disabled in its file ("disabled": true)`
	case "false":
	default:
		return e.p.errf(e.sub("disabled"), "want true or false, got %s", kind(raw))
	}
	return nil
}

// millis reads a number of milliseconds, Gemini's "timeout", as the call timeout.
func (e *entry) millis(name string) error {
	raw, ok := e.fields[name]
	if !ok {
		return nil
	}
	ms, err := strconv.ParseFloat(strings.TrimSpace(string(raw)), 64)
	if kind(raw) != "a number" || err != nil || ms < 0 || ms > float64(24*time.Hour/time.Millisecond) {
		return e.p.errf(e.sub(name), "want a number of milliseconds, got %s", strings.TrimSpace(string(raw)))
	}
	e.srv.Timeout = time.Duration(ms * float64(time.Millisecond))
	return nil
}

// envFile reads the dotenv file "envFile" names (VS Code and Cursor, stdio
// servers only). "env" wins over it, as a value written in the entry is the
// more specific. A file that cannot be read is this server's problem.
func (e *entry) envFile() error {
	raw, ok := e.fields["envFile"]
	if !ok {
		return nil
	}
	key := e.sub("envFile")
	written, err := e.p.str(key, raw)
	if err != nil || written == "" {
		return err
	}
	path, ok := e.expand(key, written)
	if !ok {
		return nil
	}
	if !filepath.IsAbs(path) {
		base := filepath.Dir(e.p.file)
		if w := e.p.f.predefined["workspaceFolder"]; w != "" {
			base = w
		}
		path = filepath.Join(base, path)
	}
	vars, err := readDotenv(path)
	if err != nil {
		e.fail(e.p.errf(key, "%v", err))
		return nil
	}
	if e.srv.Env == nil && len(vars) > 0 {
		e.srv.Env = map[string]string{}
	}
	for _, kv := range vars {
		if _, set := e.srv.Env[kv[0]]; set {
			continue
		}
		e.srv.Env[kv[0]] = kv[1]
		e.env(kv[0], kv[1])
	}
	return nil
}
