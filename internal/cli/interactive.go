package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui"
	"github.com/spf13/cobra"
)

// interactiveOptions are bare mcpsh's flags and arguments.
type interactiveOptions struct {
	f       *factory
	calls   callFlags
	limits  callLimits // the limits set on the command line
	command []string   // a stdio server's command, after --
	// help prints the root command's help, for when no server is named.
	help func() error
}

// newInteractiveCmd is the root command, bare mcpsh (root.go adds the
// flags every command shares, and the commands).
func newInteractiveCmd(f *factory, runF func(context.Context, *interactiveOptions) error) *cobra.Command {
	opts := &interactiveOptions{f: f}
	root := &cobra.Command{
		Use:           "mcpsh",
		Short:         "A terminal client for MCP servers that honours tool annotations",
		Long:          rootHelp,
		Version:       currentVersion().String(),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) > 0 {
				return &usageError{fmt.Sprintf("unknown command %q", rest[0])}
			}
			opts.command, opts.limits, opts.help = command, opts.calls.set(cmd), cmd.Help
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return interactiveRun(cmd.Context(), opts)
		},
	}
	root.SetVersionTemplate("{{.Version}}")
	opts.calls.register(root.Flags())
	return root
}

// interactiveRun is bare `mcpsh`: on a terminal, the full-screen view of the
// server named, or of every configured server at once (a workspace); piped,
// the grouped tool table. With no server named or configured it teaches how
// to name one. On the way out it says where the session log went.
func interactiveRun(ctx context.Context, opts *interactiveOptions) error {
	f, cf, command := opts.f, &opts.calls, opts.command
	uo := ui.Options{Yes: cf.yes, ReadOnly: cf.readOnly, NoColor: !f.io.Color, ConnectTimeout: f.target.connectTimeout,
		Timeout: opts.limits.timeout, MaxDuration: opts.limits.maxDuration, Attempts: opts.limits.attempts, RetryMax: opts.limits.retryMax}

	if f.targetGiven(command) {
		t, err := f.resolveTarget(command)
		if err != nil {
			return err
		}
		uo.Target = &t
	} else {
		cfg, err := f.loadConfig()
		if err != nil {
			return err
		}
		switch len(cfg.Servers) {
		case 0:
			return opts.help()
		case 1:
			if err := cfg.Servers[0].Validate(); err != nil {
				return err
			}
			t := targetOf(cfg.Servers[0])
			uo.Target = &t
		default:
			uo.Choices = choices(f, cfg)
		}
	}

	if !f.io.StdinTTY || !f.io.StdoutTTY {
		if uo.Target == nil {
			return &usageError{"several servers are configured: name one with -s NAME (opening them all at once needs a terminal)"}
		}
		// Not a terminal: the tool table, as `mcpsh tools` prints it.
		s, err := f.connect(ctx, command, nil)
		if err != nil {
			return err
		}
		defer s.Close()
		f.printToolTable(s)
		return nil
	}
	if f.target.serverStderr {
		fmt.Fprintln(f.io.ErrOut, "mcpsh: --server-stderr is ignored in the interactive view: press S to see what the server says")
	}
	if err := f.openLog(); err != nil {
		return err
	}
	// Each server gets its roots (--root and the config's) and its OAuth
	// client. Not a login here: a login notice would print under the full
	// screen; the view offers to log in instead (ui.Options.Login), and shows
	// what the login says itself. The flags are checked first, on their own,
	// so a bad --protocol or --root is a usage error, not a server of the
	// workspace that cannot connect.
	t := client.Target{}
	if uo.Target != nil {
		t = *uo.Target
	}
	feat, err := f.prepareFeatures(t)
	if err != nil {
		return err
	}
	uo.Client = *f.clientOptions()
	uo.Client.Roots = feat.roots
	uo.Client.ServerStderr, uo.Client.OnWarning = nil, nil
	if uo.Target != nil {
		uo.Client.Auth = f.authFor(*uo.Target, false)
	}
	for i := range uo.Choices {
		c := &uo.Choices[i]
		if c.Problem != "" {
			continue
		}
		feat, err := f.prepareFeatures(c.Target)
		if err != nil {
			c.Problem = err.Error() // a root in its config that is not a directory
			continue
		}
		c.Roots, c.Auth = feat.roots, f.authFor(c.Target, false)
	}
	uo.Login = func(t client.Target) *client.Auth { return f.authFor(t, true) }
	uo.OpenBrowser = client.OpenBrowser(f.getenv)
	if f.log != nil {
		uo.LogPath, uo.LogArgs = f.log.Path(), f.log.ArgsMode()
	}
	err = ui.Run(ctx, uo, f.io.In, f.io.Out)
	sayWhereTheLogIs(f)
	return err
}

// sayWhereTheLogIs tells, once the screen is restored, where the session
// log was written: the file is created by the first call, so a session
// without calls says it left none.
func sayWhereTheLogIs(f *factory) {
	if f.log == nil {
		return
	}
	path := f.log.Path()
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(f.io.ErrOut, "mcpsh: no calls, so no session log was written (it would have been %s)\n", termtext.Line(path))
		return
	}
	fmt.Fprintf(f.io.ErrOut, "mcpsh: session log: %s\n", termtext.Line(path))
}

// choices are the workspace's servers: the ones used when none is named,
// each with where it came from, then the project's servers waiting for an
// approval, shown unusable with how to open one (a server its host turned
// off is left out).
func choices(f *factory, cfg *config.File) []ui.Choice {
	home := f.target.found.Home
	var out []ui.Choice
	active := map[string]bool{}
	for _, s := range cfg.Servers {
		active[s.Name] = true
		c := ui.Choice{Name: s.Name, Transport: string(s.Transport), Where: where(s), Origin: s.Origin.Describe(home), Target: targetOf(s)}
		if err := s.Validate(); err != nil {
			c.Problem = err.Error()
		}
		if f.target.untrusted {
			c.Target.Trust = policy.Untrusted
		}
		out = append(out, c)
	}
	for _, s := range listed(f.target.found) {
		if !s.Origin.Unapproved() {
			continue
		}
		name := s.Name
		if active[name] {
			name = s.Ref()
		}
		out = append(out, ui.Choice{Name: name, Transport: string(s.Transport), Where: where(s), Origin: s.Origin.Describe(home),
			Problem: fmt.Sprintf("held: %s; open it alone with mcpsh -s %s", s.Origin.Held, s.Ref())})
	}
	return out
}
