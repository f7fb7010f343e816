package cli

import (
	"context"
	"errors"

	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/mcpsh/mcpsh/ui/watch"
	"github.com/spf13/cobra"
)

// watchOptions are mcpsh watch's flags.
type watchOptions struct {
	f    *factory
	json bool
}

const watchHelp = `mcpsh watch follows every mcpsh proxy running on this machine for this
user: the host that started each one, the server it fronts, and each call the
agent makes as it starts, is decided and ends, and the calls that wait for a
person's approval.

On a terminal it is a full-screen view: the proxies, the calls of the one
selected (] and [) or of all, newest first, and the confirmation of a call that
waits for a person: y runs it, n or esc refuses it (the agent gets a tool
error), a allows that tool for the rest of that proxy's session. ? lists every
key.

--json prints one JSON object a line for each thing it sees, until
interrupted: "event" is proxy-appeared, proxy-updated, proxy-ended,
call-started, call-decided, call-ended, question-asked, question-closed, or
dropped (call events the proxy dropped because this console fell behind).
The text in them is the servers' and the hosts': treat it as such.

Proxies register in $XDG_RUNTIME_DIR/mcpsh/proxies (else the state folder's
proxies; on Windows %LOCALAPPDATA%\mcpsh\proxies), readable by this user
only, and take only this user's consoles (a Unix socket's peer; on Windows a
loopback port and a token kept there); mcpsh proxy --no-console opts out.`

// newWatchCmd is mcpsh watch, the console of running proxies: its flags
// parsed into the options, then runF, or the run function when runF is nil.
func newWatchCmd(f *factory, runF func(context.Context, *watchOptions) error) *cobra.Command {
	o := &watchOptions{f: f}
	cmd := &cobra.Command{
		Use:     "watch [--json]",
		Short:   "Follow the calls of every running mcpsh proxy",
		Long:    watchHelp,
		Example: "  mcpsh watch\n  mcpsh watch --json\n  mcpsh watch --json | jq 'select(.event == \"question-asked\")'",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.json && (!f.io.StdinTTY || !f.io.StdoutTTY) {
				return &usageError{"mcpsh watch's view needs a terminal: pass --json for one JSON line per event"}
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return watchRun(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON object a line for each event")
	return cmd
}

// watchRun follows the proxies until interrupted.
func watchRun(ctx context.Context, o *watchOptions) error {
	a := o.f
	dir, err := console.Dir(a.getenv)
	if err != nil {
		return err
	}
	w, err := console.Watch(ctx, dir, console.WatchOptions{})
	if errors.Is(err, console.ErrUnsupported) {
		return &usageError{err.Error()}
	}
	if err != nil {
		return err
	}
	defer w.Close()
	if !o.json {
		return watch.Run(ctx, watch.Options{Events: w.Events(), Answer: w.Answer, NoColor: !a.io.Color}, a.io.In, a.io.Out)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case e := <-w.Events():
			if err := writeJSONLine(a.io.Out, e); err != nil {
				return err
			}
		}
	}
}
