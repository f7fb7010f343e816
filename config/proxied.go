package config

import (
	"fmt"
	"slices"
	"strings"
)

// A host's entry that runs `mcpsh proxy` (what mcpsh proxy config writes:
// {"command": "/usr/local/bin/mcpsh", "args": ["proxy", "--as",
// "cursor:github", "--", "npx", "-y", "@mcp/server-github"]}) is read as
// the server it proxies: the command after "--", or --url or --sse with the
// headers --header-env and --bearer-env name. Otherwise `mcpsh tools -s
// cursor:github` would start a proxy in front of the server it asks, and a
// proxy given -s cursor:github would start itself.

// IsMcpsh reports whether command is mcpsh's binary: its base name is mcpsh
// or mcpsh.exe, whichever platform's separators the path uses.
func IsMcpsh(command string) bool {
	base := command[strings.LastIndexAny(command, `/\`)+1:]
	return strings.EqualFold(base, "mcpsh") || strings.EqualFold(base, "mcpsh.exe")
}

// proxyValueFlags are mcpsh proxy's flags that name the target, whose value
// is the next argument unless written --flag=VALUE.
var proxyValueFlags = map[string]bool{"--as": true, "--url": true, "--sse": true, "--header": true,
	"--header-env": true, "--bearer-env": true, "-s": true, "--server": true}

// proxyTarget is what a proxy entry's arguments say.
type proxyTarget struct {
	as, server, bearer string
	url, sse           *argVal
	headers, headerEnv []argVal
	demo               bool
	inner              int // the index after "--"; 0 for none
}

// argVal is a flag's value: expanded, as it may be shown, and the index of
// the argument that holds it, for messages.
type argVal struct {
	value, shown string
	at           int
}

// unwrapProxy reads a stdio entry that runs mcpsh proxy as its target. What
// cannot be read is the server's Err, and it stays Proxied, so it is never
// started as a proxy by mistake.
func (e *entry) unwrapProxy() {
	s := e.srv
	if s.Transport != Stdio || !IsMcpsh(s.Command) || len(s.Args) == 0 || s.Args[0] != "proxy" {
		return
	}
	s.Proxied = true
	pt, err := e.proxyArgs()
	if err != nil {
		e.fail(err)
		return
	}
	s.ProxyAs = pt.as
	var chosen []string
	for _, c := range []struct {
		on   bool
		name string
	}{{pt.inner > 0, "-- COMMAND"}, {pt.url != nil, "--url"}, {pt.sse != nil, "--sse"}, {pt.server != "", "-s"}, {pt.demo, "--demo"}} {
		if c.on {
			chosen = append(chosen, c.name)
		}
	}
	switch {
	case len(chosen) == 0:
		e.fail(e.p.errf(e.sub("args"), "runs mcpsh proxy with no server: want -- COMMAND, --url or --sse"))
	case len(chosen) > 1:
		e.fail(e.p.errf(e.sub("args"), "runs mcpsh proxy with more than one server (%s)", strings.Join(chosen, " and ")))
	case pt.server != "":
		e.fail(e.p.errf(e.sub("args"), "runs mcpsh proxy -s %s: mcpsh reads the server a proxy entry stands for only from -- COMMAND, --url or --sse", pt.server))
	case pt.demo:
		e.fail(e.p.errf(e.sub("args"), "runs mcpsh proxy --demo, which is no server of this file"))
	case pt.inner > 0:
		e.proxiedStdio(pt.inner)
	default:
		e.proxiedRemote(pt)
	}
}

// proxyArgs reads the flags before "--". A flag mcpsh does not know here
// (--untrusted, --retries 3, ...) is skipped with its value, if the next
// argument is not a flag.
func (e *entry) proxyArgs() (proxyTarget, *Error) {
	var pt proxyTarget
	args := e.srv.Args
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pt.inner = i + 1
			if pt.inner == len(args) {
				return pt, e.p.errf(e.sub("args"), "runs mcpsh proxy with nothing after --")
			}
			return pt, nil
		}
		if !strings.HasPrefix(a, "-") {
			return pt, e.p.errf(fmt.Sprintf("%s[%d]", e.sub("args"), i), "mcpsh proxy takes no argument %q before --", e.srv.ArgsShown[i])
		}
		name, value, inline := strings.Cut(a, "=")
		v := argVal{value: value, at: i}
		_, v.shown, _ = strings.Cut(e.srv.ArgsShown[i], "=")
		if !inline && i+1 < len(args) && (proxyValueFlags[name] || !strings.HasPrefix(args[i+1], "-")) {
			i++
			v = argVal{value: args[i], shown: e.srv.ArgsShown[i], at: i}
		} else if !inline && proxyValueFlags[name] {
			return pt, e.p.errf(fmt.Sprintf("%s[%d]", e.sub("args"), i), "%s needs a value", name)
		}
		switch name {
		case "--as":
			pt.as = v.value
		case "--url":
			pt.url = &v
		case "--sse":
			pt.sse = &v
		case "--header":
			pt.headers = append(pt.headers, v)
		case "--header-env":
			pt.headerEnv = append(pt.headerEnv, v)
		case "--bearer-env":
			pt.bearer = v.value
		case "-s", "--server":
			pt.server = v.value
		case "--demo":
			pt.demo = true
		}
	}
	return pt, nil
}

// proxiedStdio makes the server the command after "--". The entry's env and
// cwd are the command's: mcpsh proxy passes its own to its child.
func (e *entry) proxiedStdio(inner int) {
	s := e.srv
	args, shown := s.Args[inner:], s.ArgsShown[inner:]
	s.Command, s.CommandShown = args[0], shown[0]
	s.Args, s.ArgsShown = nil, nil
	if len(args) > 1 {
		s.Args, s.ArgsShown = args[1:], shown[1:]
	}
}

// proxiedRemote makes the server the URL of --url or --sse, with the
// headers of --header, --header-env (from the entry's env, else mcpsh's
// environment, as mcpsh proxy reads it from the environment the host gives
// it) and --bearer-env.
func (e *entry) proxiedRemote(pt proxyTarget) {
	s := e.srv
	s.Transport = HTTP
	u := pt.url
	if pt.sse != nil {
		s.Transport, u = SSE, pt.sse
	}
	env := s.Env
	s.Command, s.Args, s.Env, s.Cwd = "", nil, nil, ""
	s.CommandShown, s.ArgsShown = "", nil
	s.URL, s.URLShown = u.value, u.shown
	if !isWebURL(s.URL) {
		e.fail(e.p.errf(fmt.Sprintf("%s[%d]", e.sub("args"), u.at), "%q is not an absolute http or https URL", s.URLShown))
	}
	lookup := func(name string) string {
		if v, ok := env[name]; ok {
			return v
		}
		v, _ := e.p.getenv(name)
		return v
	}
	set := func(k, v string) {
		if s.Headers == nil {
			s.Headers = map[string]string{}
		}
		s.Headers[k] = v
		e.secret(v)
	}
	for _, h := range pt.headers {
		k, v, ok := strings.Cut(h.value, ":")
		if !ok || strings.TrimSpace(k) == "" {
			e.fail(e.p.errf(fmt.Sprintf("%s[%d]", e.sub("args"), h.at), "--header wants 'Name: value'"))
			continue
		}
		set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	// The variables' names looked like secrets in the proxy's argv
	// (Authorization=MCPSH_HEADER_1, --bearer-env TOKEN); they are names.
	names := map[string]bool{pt.bearer: true}
	for _, h := range pt.headerEnv {
		_, name, _ := strings.Cut(h.value, "=")
		names[name] = true
	}
	e.secrets = slices.DeleteFunc(e.secrets, func(v string) bool { return names[v] })
	for _, h := range pt.headerEnv {
		k, name, ok := strings.Cut(h.value, "=")
		if !ok || k == "" || name == "" {
			e.fail(e.p.errf(fmt.Sprintf("%s[%d]", e.sub("args"), h.at), "--header-env %q: want NAME=VARIABLE", h.shown))
			continue
		}
		if v := lookup(name); v != "" { // as mcpsh proxy does: an unset variable sends no header
			set(k, v)
		}
	}
	if pt.bearer != "" {
		if v := lookup(pt.bearer); v != "" {
			set("Authorization", "Bearer "+v)
		} else {
			e.fail(e.p.errf(e.sub("args"), "--bearer-env %s: $%s is not set", pt.bearer, pt.bearer))
		}
	}
}
