package cli

import (
	"context"

	"github.com/spf13/cobra"
)

const proxyHelp = `mcpsh proxy puts mcpsh between an agent's host (Claude Desktop or Code,
Cursor, VS Code, Windsurf, Codex, Gemini CLI) and one MCP server: the host
starts it like any stdio server, and every call the agent makes goes through
mcpsh's policy, retries and session log.

The host's entry names the server with the target flags, as for every
command, and --as names it as the host knows it:

  mcpsh proxy --as cursor:github -- npx -y @modelcontextprotocol/server-github
  mcpsh proxy --as cursor:linear --url https://mcp.linear.app/mcp --header-env Authorization=MCPSH_HEADER_1

mcpsh proxy config HOST:NAME writes that entry for a server you configured in
a host, and --write puts it in the host's file.`

// newProxyCmd is mcpsh proxy: it serves a host on stdio in front of the
// target (proxyserve.go); its config subcommand writes the host entries
// that start it (proxyconfig.go).
func newProxyCmd(a *factory, runF func(context.Context, *proxyServeOptions) error) *cobra.Command {
	opts := &proxyServeOptions{f: a}
	cmd := &cobra.Command{
		Use:   "proxy [TARGET] [-- COMMAND ARGS...] | proxy config HOST:NAME",
		Short: "Route a host's calls to one server through mcpsh's policy, retries and log",
		Long:  proxyHelp + "\n\n" + proxyServeHelp + "\n\n" + proxyListenHelp,
		Example: "  mcpsh proxy --as cursor:github -- npx -y @modelcontextprotocol/server-github\n" +
			"  mcpsh proxy -s github --approval-timeout 5m\n" +
			"  mcpsh proxy -s github --listen 127.0.0.1:8765\n" +
			"  mcpsh proxy config cursor:github --write",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := proxyArgs(cmd, args, opts); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return proxyServeRun(cmd.Context(), opts)
		},
	}
	opts.flags.register(cmd.Flags())
	cmd.AddCommand(newProxyConfigCmd(a, nil))
	return cmd
}
