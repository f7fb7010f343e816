package cli

import (
	"context"
	"fmt"
	"net"

	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/spf13/cobra"
)

// serveDemoOptions are mcpsh serve-demo's flags.
type serveDemoOptions struct {
	f    *factory
	addr string // --http's; "" for stdio
}

// newServeDemoCmd is mcpsh serve-demo: its flags parsed into the options, then runF, or the run function when runF is nil.
func newServeDemoCmd(f *factory, runF func(context.Context, *serveDemoOptions) error) *cobra.Command {
	opts := &serveDemoOptions{f: f}
	cmd := &cobra.Command{
		Use:   "serve-demo",
		Short: "Serve the demo server over stdio or HTTP, for other clients and tests",
		Long: `Serve mcpsh's demo server across a real process boundary: over stdio by
default, or over streamable HTTP at http://ADDR/mcp with --http ADDR.
The demo keeps its notes in memory and reaches no network.`,
		Example: `  mcpsh tools -- mcpsh serve-demo
  mcpsh serve-demo --http 127.0.0.1:8765`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return serveDemoRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.addr, "http", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8765) instead of stdio")
	return cmd
}

// serveDemoRun serves the demo server until ctx ends or stdin closes.
func serveDemoRun(ctx context.Context, opts *serveDemoOptions) error {
	srv := opts.f.newDemo()
	if opts.addr == "" {
		return demo.ServeStdio(ctx, srv)
	}
	return demo.ServeHTTP(ctx, srv, opts.addr, func(bound net.Addr) {
		fmt.Fprintf(opts.f.io.ErrOut, "mcpsh demo server listening on http://%s/mcp\n", bound)
	})
}
