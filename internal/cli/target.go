package cli

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// targetFlags are the ways to name a server, shared by every command that talks to one.
type targetFlags struct {
	demo           bool
	server         string
	url            string
	sse            string
	headers        []string
	untrusted      bool
	protocol       string
	serverStderr   bool
	connectTimeout time.Duration
	roots          []string
	serverLog      string
	elicit         string
}

func (f *targetFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.demo, "demo", false, "use the embedded demo server")
	fs.StringVarP(&f.server, "server", "s", "", "use the configured server `NAME` (see mcpsh servers)")
	fs.StringVar(&f.url, "url", "", "reach a streamable HTTP server at `URL`")
	fs.StringVar(&f.sse, "sse", "", "reach a legacy HTTP+SSE server at `URL`")
	fs.StringArrayVar(&f.headers, "header", nil, "add an HTTP header `'K: V'` (repeatable; with --url or --sse)")
	fs.BoolVar(&f.untrusted, "untrusted", false, "do not believe the server's hints: every call asks first")
	fs.StringVar(&f.protocol, "protocol", client.ProtocolAuto, "MCP protocol `VERSION` to request: auto (the newest the server speaks) or one of "+strings.Join(client.ProtocolVersions, ", "))
	fs.BoolVar(&f.serverStderr, "server-stderr", false, "copy a stdio server's stderr to mcpsh's stderr (made safe for a terminal)")
	fs.DurationVar(&f.connectTimeout, "connect-timeout", DefaultConnectTimeout, "give up connecting after `DURATION` (starting the server and the handshake)")
	fs.StringArrayVar(&f.roots, "root", nil, "let the server see `DIR` as a root (repeatable; roots are declared only when given)")
	fs.StringVar(&f.serverLog, "server-log", "", "ask the server for its log messages at `LEVEL` and above (debug, info, notice, warning, error…) and print them on stderr")
	fs.StringVar(&f.elicit, "elicit", "decline", "answer a server's request for input in batch mode: decline, defaults (the form's defaults; decline if a required field has none), or @FILE (answers as JSON)")
}

// resolveTarget turns the target flags, or a command after "--", into a Target.
// With no target given and exactly one server configured, that server is used.
func (a *app) resolveTarget(cmd *cobra.Command, command []string) (client.Target, error) {
	f := &a.target
	var chosen []string
	if f.demo {
		chosen = append(chosen, "--demo")
	}
	if f.server != "" {
		chosen = append(chosen, "-s")
	}
	if f.url != "" {
		chosen = append(chosen, "--url")
	}
	if f.sse != "" {
		chosen = append(chosen, "--sse")
	}
	if len(command) > 0 {
		chosen = append(chosen, "-- COMMAND")
	}
	if len(chosen) > 1 {
		return client.Target{}, &usageError{fmt.Sprintf("choose one target, not %s", strings.Join(chosen, " and "))}
	}
	if len(f.headers) > 0 && f.url == "" && f.sse == "" {
		return client.Target{}, &usageError{"--header needs --url or --sse"}
	}
	var t client.Target
	var err error
	switch {
	case f.demo:
		t = client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: newDemoServer().MCP(), Trust: policy.Trusted}
	case f.server != "":
		t, err = a.configuredTarget(f.server)
	case f.url != "" || f.sse != "":
		t, err = adHocHTTP(f)
	case len(command) > 0:
		t = client.Target{Kind: client.KindStdio, Command: command[0], Args: command[1:], Trust: policy.Trusted}
	default:
		t, err = a.onlyConfiguredTarget()
	}
	if err != nil {
		return client.Target{}, err
	}
	if f.untrusted {
		t.Trust = policy.Untrusted
	}
	return t, nil
}

func adHocHTTP(f *targetFlags) (client.Target, error) {
	t := client.Target{Kind: client.KindHTTP, URL: f.url, Trust: policy.Trusted}
	flag := "--url"
	if f.sse != "" {
		t.Kind, t.URL, flag = client.KindSSE, f.sse, "--sse"
	}
	u, err := url.Parse(t.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return t, &usageError{fmt.Sprintf("%s %q: want an http:// or https:// URL", flag, t.URL)}
	}
	for _, h := range f.headers {
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
	return t, nil
}

// loadConfig reads the config file once per run; a missing default file is no error.
func (a *app) loadConfig() (*config.File, error) {
	if a.cfg != nil || a.cfgErr != nil {
		return a.cfg, a.cfgErr
	}
	path, found, err := config.Find(a.configPath, a.getenv)
	switch {
	case err != nil:
		a.cfgErr = err
	case !found:
		a.cfg = &config.File{Path: path}
	default:
		a.cfg, a.cfgErr = config.Load(path, a.getenv)
	}
	return a.cfg, a.cfgErr
}

func (a *app) configuredTarget(name string) (client.Target, error) {
	cfg, err := a.loadConfig()
	if err != nil {
		return client.Target{}, err
	}
	srv, err := cfg.Lookup(name)
	if err != nil {
		return client.Target{}, err
	}
	return targetOf(srv), nil
}

func (a *app) onlyConfiguredTarget() (client.Target, error) {
	cfg, err := a.loadConfig()
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

// DefaultConnectTimeout bounds the handshake, so a server that never answers
// does not hang a script (or the TUI).
const DefaultConnectTimeout = 30 * time.Second

func (a *app) clientOptions() *client.Options {
	o := &client.Options{ProtocolVersion: a.target.protocol, Version: Version, Recorder: a.recorder, OnWarning: a.warn,
		Roots: a.roots}
	if a.trace != nil {
		o.Trace = a.trace.write
	}
	if a.target.serverStderr {
		o.ServerStderr = a.io.ErrOut
	}
	return o
}

// newDemoServer builds the --demo server; tests replace it to watch the server's counters.
var newDemoServer = demo.New
