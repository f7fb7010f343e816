package cli

import (
	"fmt"
	"os"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui"
	"github.com/spf13/cobra"
)

// interactive is bare `mcpsh`: on a terminal, the full-screen view of the
// server named, or of every configured server at once (a workspace); piped,
// the grouped tool table. With no server named or configured it teaches how
// to name one. On the way out it says where the session log went.
func (a *app) interactive(cmd *cobra.Command, args []string, f *callFlags) error {
	rest, command := commandAfterDash(cmd, args)
	if len(rest) > 0 {
		return &usageError{fmt.Sprintf("unknown command %q", rest[0])}
	}
	opts := ui.Options{Yes: f.yes, ReadOnly: f.readOnly, NoColor: !a.io.Color, ConnectTimeout: a.target.connectTimeout}
	opts.Timeout, opts.MaxDuration, opts.Attempts, opts.RetryMax = f.limits(cmd)

	if a.targetGiven(command) {
		t, err := a.resolveTarget(cmd, command)
		if err != nil {
			return err
		}
		opts.Target = &t
	} else {
		cfg, err := a.loadConfig()
		if err != nil {
			return err
		}
		switch len(cfg.Servers) {
		case 0:
			return cmd.Help()
		case 1:
			if err := cfg.Servers[0].Validate(); err != nil {
				return err
			}
			t := targetOf(cfg.Servers[0])
			opts.Target = &t
		default:
			opts.Choices = a.choices(cfg) // target.go
		}
	}

	if !a.io.StdinTTY || !a.io.StdoutTTY {
		if opts.Target == nil {
			return &usageError{"several servers are configured: name one with -s NAME (opening them all at once needs a terminal)"}
		}
		// Not a terminal: the tool table, as `mcpsh tools` prints it.
		s, err := a.connect(cmd, command)
		if err != nil {
			return err
		}
		defer s.Close()
		a.printToolTable(s)
		return nil
	}
	if a.target.serverStderr {
		fmt.Fprintln(a.io.ErrOut, "mcpsh: --server-stderr is ignored in the interactive view: press S to see what the server says")
	}
	if err := a.openLog(); err != nil {
		return err
	}
	// Each server gets its roots (--root and the config's) and its OAuth
	// client. Not a login here: a login notice would print under the full
	// screen; the view offers to log in instead (opts.Login), and shows
	// what the login says itself. The flags are checked first, on their own,
	// so a bad --protocol or --root is a usage error, not a server of the
	// workspace that cannot connect.
	t := client.Target{}
	if opts.Target != nil {
		t = *opts.Target
	}
	if err := a.prepareFeatures(t); err != nil {
		return err
	}
	opts.Client = *a.clientOptions()
	opts.Client.ServerStderr, opts.Client.OnWarning = nil, nil
	if opts.Target != nil {
		opts.Client.Auth = a.authFor(*opts.Target, false)
	}
	for i := range opts.Choices {
		c := &opts.Choices[i]
		if c.Problem != "" {
			continue
		}
		if err := a.prepareFeatures(c.Target); err != nil {
			c.Problem = err.Error() // a root in its config that is not a directory
			continue
		}
		c.Roots, c.Auth = a.roots, a.authFor(c.Target, false)
	}
	opts.Login = func(t client.Target) *client.Auth { return a.authFor(t, true) }
	opts.OpenBrowser = client.OpenBrowser(a.getenv)
	if a.log != nil {
		opts.LogPath, opts.LogArgs = a.log.Path(), a.log.ArgsMode()
	}
	err := ui.Run(cmd.Context(), opts, a.io.In, a.io.Out)
	a.sayWhereTheLogIs()
	return err
}

// sayWhereTheLogIs tells, once the screen is restored, where the session
// log was written: the file is created by the first call, so a session
// without calls says it left none.
func (a *app) sayWhereTheLogIs() {
	if a.log == nil {
		return
	}
	path := a.log.Path()
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(a.io.ErrOut, "mcpsh: no calls, so no session log was written (it would have been %s)\n", termtext.Line(path))
		return
	}
	fmt.Fprintf(a.io.ErrOut, "mcpsh: session log: %s\n", termtext.Line(path))
}
