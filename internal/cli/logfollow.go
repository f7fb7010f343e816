package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// followLog prints entries as they are written until the command's context
// ends (Ctrl-C), which is how following is meant to stop: it exits 0.
func (opts *logOptions) followLog(ctx context.Context, fl *sessionlog.Follower, what string) error {
	f := opts.f
	fmt.Fprintf(f.io.ErrOut, "mcpsh: following %s; Ctrl-C stops\n", termtext.Line(what))
	pr := &logPrinter{f: f, json: opts.q.json}
	tick := time.NewTicker(opts.every)
	defer tick.Stop()
	for {
		got := fl.Poll()
		for _, w := range got.Warnings {
			f.warn(w)
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
