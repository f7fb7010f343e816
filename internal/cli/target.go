package cli

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/spf13/pflag"
)

// targetFlags are the ways to name a server, shared by every command that talks to one.
type targetFlags struct {
	demo           bool
	server         string
	url            string
	sse            string
	headers        []string
	headerEnv      []string
	bearerEnv      string
	as             string
	untrusted      bool
	protocol       string
	serverStderr   bool
	connectTimeout time.Duration
	roots          []string
	serverLog      string
	elicit         string
	// noDiscover reads mcpsh's own config only (--no-discover).
	noDiscover bool
	// found is every server from every host's file, read once per run by
	// loadConfig; -s resolves against it.
	found *config.Catalog
}

func (f *targetFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.demo, "demo", false, "use the embedded demo server")
	fs.StringVarP(&f.server, "server", "s", "", "use the configured server `NAME`: mcpsh's own, or one of Claude, Cursor, VS Code, Windsurf, Codex or Gemini (HOST:NAME picks a host's, as in cursor:github; see mcpsh servers)")
	fs.StringVar(&f.url, "url", "", "reach a streamable HTTP server at `URL`")
	fs.StringVar(&f.sse, "sse", "", "reach a legacy HTTP+SSE server at `URL`")
	fs.StringArrayVar(&f.headers, "header", nil, "add an HTTP header `'K: V'` (repeatable; with --url or --sse)")
	fs.StringArrayVar(&f.headerEnv, "header-env", nil, "add an HTTP header from the environment: `NAME=VARIABLE` (the value stays off the command line; an unset variable sends none; repeatable; with --url or --sse)")
	fs.StringVar(&f.bearerEnv, "bearer-env", "", "send 'Authorization: Bearer' with the token in environment `VARIABLE` (with --url or --sse)")
	fs.StringVar(&f.as, "as", "", "call the server `HOST:NAME` (cursor:github) in messages and the log, and untrust it if mcpsh's config untrusts that name")
	fs.BoolVar(&f.untrusted, "untrusted", false, "do not believe the server's hints: every call asks first")
	fs.StringVar(&f.protocol, "protocol", client.ProtocolAuto, "MCP protocol `VERSION` to request: auto (the newest the server speaks) or one of "+strings.Join(client.ProtocolVersions, ", "))
	fs.BoolVar(&f.serverStderr, "server-stderr", false, "copy a stdio server's stderr to mcpsh's stderr (made safe for a terminal)")
	fs.DurationVar(&f.connectTimeout, "connect-timeout", DefaultConnectTimeout, "give up connecting after `DURATION` (starting the server and the handshake)")
	fs.StringArrayVar(&f.roots, "root", nil, "let the server see `DIR` as a root (repeatable; roots are declared only when given)")
	fs.StringVar(&f.serverLog, "server-log", "", "ask the server for its log messages at `LEVEL` and above (debug, info, notice, warning, error…) and print them on stderr")
	fs.BoolVar(&f.noDiscover, "no-discover", false, "read servers from mcpsh's own config only, not from Claude, Cursor, VS Code, Windsurf, Codex or Gemini files")
	fs.StringVar(&f.elicit, "elicit", "decline", "answer a server's request for input in batch mode: decline, defaults (the form's defaults; decline if a required field has none), or @FILE (answers as JSON)")
}

// resolveTarget turns the target flags, or a command after "--", into a Target.
// With no target given and exactly one server configured, that server is used.
func (f *factory) resolveTarget(command []string) (client.Target, error) {
	fl := &f.target
	var chosen []string
	if fl.demo {
		chosen = append(chosen, "--demo")
	}
	if fl.server != "" {
		chosen = append(chosen, "-s")
	}
	if fl.url != "" {
		chosen = append(chosen, "--url")
	}
	if fl.sse != "" {
		chosen = append(chosen, "--sse")
	}
	if len(command) > 0 {
		chosen = append(chosen, "-- COMMAND")
	}
	if len(chosen) > 1 {
		return client.Target{}, &usageError{fmt.Sprintf("choose one target, not %s", strings.Join(chosen, " and "))}
	}
	for _, h := range []struct {
		name string
		set  bool
	}{{"--header", len(fl.headers) > 0}, {"--header-env", len(fl.headerEnv) > 0}, {"--bearer-env", fl.bearerEnv != ""}} {
		if h.set && fl.url == "" && fl.sse == "" {
			return client.Target{}, &usageError{h.name + " needs --url or --sse"}
		}
	}
	if fl.as != "" && fl.server != "" {
		// Its config (OAuth client, rules) is found by the name it has.
		return client.Target{}, &usageError{"--as names a server reached by --url, --sse or -- COMMAND; -s " + fl.server + " has its name"}
	}
	var t client.Target
	var err error
	switch {
	case fl.demo:
		t = client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: f.newDemo().MCP(), Trust: policy.Trusted}
	case fl.server != "":
		t, err = f.configuredTarget(fl.server)
	case fl.url != "" || fl.sse != "":
		t, err = f.adHocHTTP()
	case len(command) > 0:
		t = client.Target{Kind: client.KindStdio, Command: command[0], Args: command[1:], Trust: policy.Trusted}
	default:
		t, err = f.onlyConfiguredTarget()
	}
	if err == nil && fl.as != "" {
		err = f.nameAs(&t) // first: the global rules are found by this name
	}
	if err == nil && (fl.demo || fl.url != "" || fl.sse != "" || len(command) > 0) {
		err = f.addGlobalRules(&t) // globalrules.go
	}
	if err != nil {
		return client.Target{}, err
	}
	if fl.untrusted {
		t.Trust = policy.Untrusted
	}
	return t, nil
}

func (f *factory) adHocHTTP() (client.Target, error) {
	fl := &f.target
	t := client.Target{Kind: client.KindHTTP, URL: fl.url, Trust: policy.Trusted}
	flag := "--url"
	if fl.sse != "" {
		t.Kind, t.URL, flag = client.KindSSE, fl.sse, "--sse"
	}
	u, err := url.Parse(t.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return t, &usageError{fmt.Sprintf("%s %q: want an http:// or https:// URL", flag, t.URL)}
	}
	for _, h := range fl.headers {
		k, v, ok := strings.Cut(h, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return t, &usageError{fmt.Sprintf("--header %q: want 'Name: value'", h)}
		}
		if t.Headers == nil {
			t.Headers = map[string]string{}
		}
		t.Headers[k] = strings.TrimSpace(v)
	}
	return t, f.headersFromEnv(&t)
}

// loadConfig reads mcpsh's config file once per run (a missing default file
// is no error) and, unless --no-discover or the file's "discover": false
// says not to, every other host's file (config.Discover). The File it
// returns holds the servers used when none is named: for each name the one
// that wins, none held back (f.target.found has them all). A host file that
// cannot be read is a warning, printed here, once.
func (f *factory) loadConfig() (*config.File, error) {
	if f.cfg != nil || f.cfgErr != nil {
		return f.cfg, f.cfgErr
	}
	path, found, err := config.Find(f.configPath, f.getenv)
	own := &config.File{Path: path, Missing: !found}
	switch {
	case err != nil:
		f.cfgErr = err
	case found:
		own, f.cfgErr = config.Load(path, f.getenv)
	}
	if f.cfgErr != nil {
		return nil, f.cfgErr
	}
	cwd, _ := f.getwd()
	c := config.Discover(config.Discovery{Own: own, Getenv: f.getenv, Dir: cwd, Off: f.target.noDiscover})
	for _, w := range c.Warnings {
		f.warn(w.Error() + " (its servers are left out)")
	}
	f.target.found = c
	file := *own // every key of mcpsh's file, with the servers of every file
	file.Servers = c.Active()
	f.cfg = &file
	return f.cfg, nil
}

// configuredTarget resolves -s REF: NAME by precedence, or HOST:NAME.
func (f *factory) configuredTarget(ref string) (client.Target, error) {
	if _, err := f.loadConfig(); err != nil {
		return client.Target{}, err
	}
	srv, others, err := f.target.found.Resolve(ref)
	if srv == nil {
		return client.Target{}, err
	}
	f.sayWhich(ref, srv, others)
	if err != nil {
		return client.Target{}, err
	}
	return targetOf(srv), nil
}

// sayWhich tells on stderr which server -s REF got when it had a choice, or
// when it starts a server only because it was named.
func (f *factory) sayWhich(ref string, s *config.Server, others []*config.Server) {
	home := f.target.found.Home
	var b strings.Builder
	fmt.Fprintf(&b, "mcpsh: -s %s: ", ref)
	switch {
	case len(others) > 0:
		var also []string
		hint := ""
		for _, o := range others {
			also = append(also, o.Origin.Describe(home))
			if hint == "" && o.Origin.Host != s.Origin.Host {
				hint = fmt.Sprintf("; -s %s picks %s's", o.Ref(), o.Origin.Host)
			}
		}
		fmt.Fprintf(&b, "using %s; also defined by %s%s", s.Origin.Describe(home), strings.Join(also, ", "), hint)
		if s.Origin.Held != "" {
			fmt.Fprintf(&b, " (this one is held: %s)", s.Origin.Held)
		}
	case s.Origin.Held != "":
		fmt.Fprintf(&b, "using %s, held (%s): starting it because you named it", s.Origin.Describe(home), s.Origin.Held)
	default:
		return
	}
	fmt.Fprintln(f.io.ErrOut, termtext.Line(b.String()))
}

func (f *factory) onlyConfiguredTarget() (client.Target, error) {
	cfg, err := f.loadConfig()
	if err != nil {
		return client.Target{}, err
	}
	const how = "name a server: --demo, -s NAME, --url URL, --sse URL, or -- COMMAND ARGS..."
	switch len(cfg.Servers) {
	case 0:
		return client.Target{}, &usageError{"no server given: " + how}
	case 1:
		return targetOf(cfg.Servers[0]), cfg.Servers[0].Validate()
	}
	var names []string
	for _, s := range cfg.Servers {
		names = append(names, s.Name)
	}
	return client.Target{}, &usageError{fmt.Sprintf("no server given and %d are configured (%s): %s",
		len(names), strings.Join(names, ", "), how)}
}

func targetOf(s *config.Server) client.Target {
	t := client.Target{
		Name: s.Name, Command: s.Command, Args: s.Args, Env: s.Env, Dir: s.Cwd,
		URL: s.URL, Headers: s.Headers, Trust: s.Trust, Rules: s.Rules,
		Timeout: s.Timeout, Retries: s.Retries, RetryMax: s.RetryMax,
		CommandShown: s.CommandShown, ArgsShown: s.ArgsShown, URLShown: s.URLShown, Secrets: s.Secrets,
		Roots: s.Roots,
	}
	switch s.Transport {
	case config.HTTP:
		t.Kind = client.KindHTTP
	case config.SSE:
		t.Kind = client.KindSSE
	default:
		t.Kind = client.KindStdio
	}
	return t
}
