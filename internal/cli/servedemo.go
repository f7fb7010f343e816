package cli

import (
	"fmt"
	"net"

	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/spf13/cobra"
)

func (a *app) serveDemoCmd() *cobra.Command {
	var addr string
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
			srv := demo.New()
			if addr == "" {
				return demo.ServeStdio(cmd.Context(), srv)
			}
			return demo.ServeHTTP(cmd.Context(), srv, addr, func(bound net.Addr) {
				fmt.Fprintf(a.io.ErrOut, "mcpsh demo server listening on http://%s/mcp\n", bound)
			})
		},
	}
	cmd.Flags().StringVar(&addr, "http", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8765) instead of stdio")
	return cmd
}
