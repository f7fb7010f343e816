package cli

import (
	"errors"

	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/spf13/cobra"
)

// watchOptions are mcpsh watch's flags.
type watchOptions struct {
	json bool
}

const watchHelp = `mcpsh watch follows every mcpsh proxy running on this machine for this
user: the host that started each one, the server it fronts, and each call the
agent makes as it starts, is decided and ends, and the calls that wait for a
person's approval.

--json prints one JSON object a line for each thing it sees, until
interrupted: "event" is proxy-appeared, proxy-updated, proxy-ended,
call-started, call-decided, call-ended, question-asked, question-closed, or
dropped (call events the proxy dropped because this console fell behind).
The text in them is the servers' and the hosts': treat it as such.

Proxies register in $XDG_RUNTIME_DIR/mcpsh/proxies (else the state folder's
proxies), readable by this user only; mcpsh proxy --no-console opts out.`

// watchCmd is mcpsh watch: the console of running proxies.
func (a *app) watchCmd() *cobra.Command {
	var o watchOptions
	cmd := &cobra.Command{
		Use:     "watch --json",
		Short:   "Follow the calls of every running mcpsh proxy",
		Long:    watchHelp,
		Example: "  mcpsh watch --json\n  mcpsh watch --json | jq 'select(.event == \"question-asked\")'",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runWatch(cmd, &o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON object a line for each event")
	return cmd
}

// runWatch follows the proxies until interrupted.
func (a *app) runWatch(cmd *cobra.Command, o *watchOptions) error {
	if !o.json {
		return &usageError{"mcpsh watch has no full-screen view yet: pass --json for one JSON line per event"}
	}
	dir, err := console.Dir(a.getenv)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	w, err := console.Watch(ctx, dir, console.WatchOptions{})
	if errors.Is(err, console.ErrUnsupported) {
		return &usageError{err.Error()}
	}
	if err != nil {
		return err
	}
	defer w.Close()
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
