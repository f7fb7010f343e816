package config

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/policy"
)

// knownKeys are the per-server keys mcpsh reads. Every other key (disabled,
// autoApprove, alwaysAllow, envFile, description, ...) belongs to another client
// and is ignored.
var knownKeys = map[string]bool{
	"type": true, "command": true, "args": true, "env": true, "cwd": true,
	"url": true, "headers": true,
	"trust": true, "policy": true, "timeout": true, "retries": true, "retryMax": true,
	"clientId": true, "clientSecret": true, "clientMetadataUrl": true, "scopes": true, "grant": true,
	"roots": true,
}

// entry is one server's object while it is decoded.
type entry struct {
	p   *parser
	key string
	// fields are the known keys that are present; a null value counts as absent.
	fields map[string]json.RawMessage
	srv    *Server
	// secrets collects the server's Secrets while it is decoded.
	secrets []string
	// alias names a field by the key its host's file uses ("serverUrl" for
	// "url"), for messages.
	alias map[string]string
}

// server decodes the server called name, found at key.
func (p *parser) server(key, name string, raw json.RawMessage) (*Server, error) {
	keys := knownKeys
	if p.d != nil {
		keys = p.d.keys
	}
	ms, err := p.object(key, raw, func(k string) bool { return keys[k] })
	if err != nil {
		return nil, err
	}
	e := &entry{p: p, key: key, fields: map[string]json.RawMessage{},
		srv: &Server{Name: name, Key: key, Trust: policy.Trusted}}
	for _, m := range ms {
		if keys[m.name] && kind(m.value) != "null" {
			e.fields[m.name] = m.value
		}
	}
	if p.d != nil {
		return e.hostServer() // another host's file (discover_parse.go)
	}
	if e.srv.Transport, err = e.transport(); err != nil {
		return nil, err
	}
	connect := e.remote
	if e.srv.Transport == Stdio {
		connect = e.stdio
	}
	for _, step := range []func() error{connect, e.oauth, e.trust, e.rules, e.limits, e.roots} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	e.srv.Secrets = tidy(e.secrets)
	return e.srv, nil
}

// sub is the key path of the server's field name.
func (e *entry) sub(name string) string {
	if a, ok := e.alias[name]; ok {
		name = a
	}
	return e.key + "." + name
}

// transport reads "type", or infers it from whether the server has a command or a
// URL, as Claude Desktop and Cursor files leave it out.
func (e *entry) transport() (Transport, error) {
	typ, err := e.str("type")
	if err != nil {
		return "", err
	}
	switch typ {
	case "stdio":
		return Stdio, nil
	case "http", "streamable-http", "streamableHttp", "streamable_http":
		return HTTP, nil
	case "sse":
		return SSE, nil
	case "":
		_, cmd := e.fields["command"]
		_, url := e.fields["url"]
		switch {
		case cmd && url:
			return "", e.p.errf(e.key, `has both "command" and "url"; add "type" to say which to use`)
		case cmd:
			return Stdio, nil
		case url:
			return HTTP, nil
		}
		return "", e.p.errf(e.key, `has neither "command" nor "url"`)
	}
	return "", e.p.errf(e.sub("type"), "unknown type %q (want stdio, http or sse)", typ)
}

// stdio reads what starts a child process.
func (e *entry) stdio() error {
	cmd, err := e.required("command")
	if err != nil {
		return err
	}
	e.srv.CommandShown = redact.Text(cmd)
	v, ok := e.expand(e.sub("command"), cmd)
	if ok && v == "" {
		e.fail(e.p.errf(e.sub("command"), "%q expands to nothing", e.srv.CommandShown))
	} else {
		e.srv.Command = v
	}
	if ok {
		e.secretsIn(v)
	}
	if raw, ok := e.fields["args"]; ok {
		written, err := e.p.strs(e.sub("args"), raw)
		if err != nil {
			return err
		}
		e.args(written)
	}
	if e.srv.Env, err = e.strMap("env", e.env); err != nil {
		return err
	}
	cwd, err := e.str("cwd")
	if err != nil {
		return err
	}
	e.srv.Cwd, _ = e.expand(e.sub("cwd"), cwd)
	return nil
}

// remote reads what reaches an HTTP or SSE server.
func (e *entry) remote() error {
	raw, err := e.required("url")
	if err != nil {
		return err
	}
	key := e.sub("url")
	u, ok := e.expand(key, raw)
	e.srv.URL = u
	e.srv.URLShown = redact.URL(raw)
	if ok {
		e.secretsIn(u)
	}
	// The messages quote the URL as shown: a key written into the file's URL
	// must not reach the terminal because the URL is wrong.
	if ok && !isWebURL(u) {
		if u == raw {
			return e.p.errf(key, "%q is not an absolute http or https URL", e.srv.URLShown)
		}
		// The value came from the environment, so only this server is at fault.
		e.fail(e.p.errf(key, "%q does not expand to an absolute http or https URL", e.srv.URLShown))
	}
	// Every header value is a secret: mcpsh never shows headers, and custom
	// ones (X-Tenant-Key, Api-Token, ...) can be named anything.
	e.srv.Headers, err = e.strMap("headers", func(_, v string) { e.secret(v) })
	return err
}

// isWebURL reports whether s is an absolute http or https URL with a host.
func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// trust reads the server's trust level; the default is trusted.
func (e *entry) trust() error {
	if _, ok := e.fields["trust"]; !ok {
		return nil
	}
	s, err := e.str("trust")
	if err != nil {
		return err
	}
	if e.srv.Trust, err = policy.ParseTrust(s); err != nil {
		return e.p.errf(e.sub("trust"), "%v", err)
	}
	return nil
}

// rules reads the server's policy object: allow, confirm and deny lists of
// rules (rules.go).
func (e *entry) rules() error {
	raw, ok := e.fields["policy"]
	if !ok {
		return nil
	}
	var err error
	e.srv.Rules, err = e.p.readRules(e.sub("policy"), raw, false)
	return err
}

// limits reads the call timeout and the retry budget.
// roots reads the directories mcpsh lets the server see (mcpsh's own key):
// ${VAR} expanded, "~/" the home folder, relative paths from the config
// file's folder, since the file is read from wherever mcpsh runs.
func (e *entry) roots() error {
	raw, ok := e.fields["roots"]
	if !ok {
		return nil
	}
	key := e.sub("roots")
	dirs, err := e.p.strs(key, raw)
	if err != nil {
		return err
	}
	for i, d := range dirs {
		v, ok := e.expand(fmt.Sprintf("%s[%d]", key, i), d)
		if !ok {
			continue
		}
		if rest, ok := strings.CutPrefix(v, "~/"); ok {
			if home, ok := e.p.getenv("HOME"); ok {
				v = filepath.Join(home, rest)
			}
		}
		if !filepath.IsAbs(v) && e.p.file != "" {
			v = filepath.Join(filepath.Dir(e.p.file), v)
		}
		e.srv.Roots = append(e.srv.Roots, v)
	}
	return nil
}

func (e *entry) limits() error {
	var err error
	if e.srv.Timeout, err = e.duration("timeout"); err != nil {
		return err
	}
	if e.srv.Retries, err = e.count("retries"); err != nil {
		return err
	}
	e.srv.RetryMax, err = e.duration("retryMax")
	return err
}

// expand expands s, the value at key. A reference that cannot be expanded becomes
// the server's Err (the first found wins) and s comes back as written, with false.
// The values of the references that look secret join the server's Secrets.
func (e *entry) expand(key, s string) (string, bool) {
	var refs []string
	v, err := e.p.forms().expand(s, e.p.getenv, func(name, value string) {
		if secretVar(name, value) {
			refs = append(refs, value)
		}
	})
	if err != nil {
		e.fail(e.p.errf(key, "%v", err))
		return s, false
	}
	for _, r := range refs {
		e.secret(r)
	}
	return v, true
}

// fail records a problem of this server alone, keeping the first.
func (e *entry) fail(err *Error) {
	if e.srv.Err == nil {
		e.srv.Err = err
	}
}
