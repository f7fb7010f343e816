package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mcpsh/mcpsh/internal/paths"
	"github.com/mcpsh/mcpsh/internal/proxy"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// listenFlags are mcpsh proxy's flags for serving over streamable HTTP.
type listenFlags struct {
	addr         string
	remote       bool
	allowHosts   []string
	allowOrigins []string
	noToken      bool
}

func (f *listenFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.addr, "listen", "", "serve streamable HTTP on `HOST:PORT` (a loopback address; PORT 0 picks one) instead of stdio")
	fs.BoolVar(&f.remote, "listen-remote", false, "let --listen bind an address beyond this machine (the token stays required)")
	fs.StringArrayVar(&f.allowHosts, "allow-host", nil, "also accept this `NAME[:PORT]` in the Host header (repeatable)")
	fs.StringArrayVar(&f.allowOrigins, "allow-origin", nil, "also accept requests from this web `ORIGIN` (scheme://host:port; repeatable)")
	fs.BoolVar(&f.noToken, "no-token", false, "serve --listen without a bearer token (any local user may then use the server through it)")
}

const proxyListenHelp = `With --listen HOST:PORT, mcpsh proxy serves streamable HTTP at
http://HOST:PORT/mcp instead of stdio, for hosts that connect to a URL. Each
host session gets its own upstream session (a process, for a stdio server),
at most 16 at once, ended after 30 idle minutes or when the host ends it.

It is for this machine only: HOST must be a loopback address (127.0.0.1, ::1)
or localhost, and a request must name the proxy exactly in its Host header
(127.0.0.1:PORT, [::1]:PORT or localhost:PORT; --allow-host adds names) and
come from no web page of another origin (--allow-origin adds origins).
Loopback is open to every user of the machine, so a host must also send
Authorization: Bearer TOKEN, where TOKEN is in a file only you can read,
$XDG_STATE_HOME/mcpsh/proxy/PORT.token, made anew at each start and removed
at exit (mcpsh prints where). --no-token drops that; --listen-remote binds
beyond this machine and always keeps it.

  mcpsh proxy --listen 127.0.0.1:8765 -s github
  curl -H "Authorization: Bearer $(cat ~/.local/state/mcpsh/proxy/8765.token)" ...`

// check refuses --listen's companions without it, and an address beyond
// this machine unless --listen-remote: usage errors, before anything
// starts.
func (f *listenFlags) check(cmd *cobra.Command) (bindAddr string, err error) {
	if f.addr == "" {
		for _, name := range []string{"listen-remote", "allow-host", "allow-origin", "no-token"} {
			if cmd.Flags().Changed(name) {
				return "", &usageError{fmt.Sprintf("--%s goes with --listen", name)}
			}
		}
		return "", nil
	}
	if f.remote && f.noToken {
		return "", &usageError{"--no-token and --listen-remote: a proxy reachable from other machines requires its token"}
	}
	bind, err := proxy.BindAddr(f.addr, f.remote)
	if errors.Is(err, proxy.ErrNotLoopback) {
		return "", &usageError{fmt.Sprintf("--listen %s; serve on 127.0.0.1:PORT, [::1]:PORT or localhost:PORT, or add --listen-remote to serve beyond this machine", err)}
	}
	if err != nil {
		return "", &usageError{"--listen " + err.Error()}
	}
	return bind, nil
}

// proxyListen serves hosts over streamable HTTP until the first
// interrupt, then ends every host session and its server.
func (a *factory) proxyListen(ctx context.Context, p *proxy.Proxy, f *listenFlags, bind string) error {
	o := proxy.ListenOptions{Addr: bind, AllowHosts: f.allowHosts, AllowOrigins: f.allowOrigins, NoToken: f.noToken}
	if !f.noToken {
		dir, err := paths.StateDir(a.getenv)
		if err != nil {
			return fmt.Errorf("where to keep the token: %w", err)
		}
		o.TokenDir = filepath.Join(dir, "proxy")
	}
	l, err := p.Listen(o)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", f.addr, err)
	}
	fmt.Fprintf(a.io.ErrOut, "mcpsh proxy: listening on %s\n", l.URL())
	if file := l.TokenFile(); file != "" {
		fmt.Fprintf(a.io.ErrOut, "mcpsh proxy: hosts send \"Authorization: Bearer TOKEN\", the token in %s (removed at exit)\n", file)
	} else {
		fmt.Fprintln(a.io.ErrOut, "mcpsh proxy: no token: any local user may use the server through this proxy")
	}
	return l.Serve(ctx)
}
