package cli

import (
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// followEvery is how often `log --follow` looks for new entries.
var followEvery = 200 * time.Millisecond

// followLog prints entries as they are written until the command's context
// ends (Ctrl-C), which is how following is meant to stop: it exits 0.
func (a *app) followLog(cmd *cobra.Command, fl *sessionlog.Follower, what string, q logQuery) error {
	fmt.Fprintf(a.io.ErrOut, "mcpsh: following %s; Ctrl-C stops\n", termtext.Line(what))
	pr := &logPrinter{a: a, json: q.json}
	ctx := cmd.Context()
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	for {
		got := fl.Poll()
		for _, w := range got.Warnings {
			a.warn(w)
		}
		for _, e := range got.Entries {
			if err := pr.print(e); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
