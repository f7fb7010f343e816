// Package cli holds mcpsh's commands: flags, streams and exit codes around the
// client, policy and config packages. cmd/mcpsh only wires it to the process.
package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

const rootHelp = `mcpsh explores, scripts and checks MCP servers, and takes their tool
annotations seriously: tools are grouped by safety, destructive calls ask
first (and are refused in scripts unless --yes), and every call is recorded.

Name a server with one of:
  --demo               the embedded demo server (start here)
  -s NAME              a configured server: mcpsh's, or Claude's, Cursor's, VS
                       Code's... (see: mcpsh servers; -s cursor:NAME picks a host's)
  --url URL            a streamable HTTP server (--header 'K: V' to add headers)
  --sse URL            a legacy HTTP+SSE server
  -- COMMAND ARGS...   a stdio server mcpsh starts (and stops) itself

Examples:
  mcpsh tools --demo
  mcpsh call --demo add_note title="Buy milk"
  mcpsh call read_file path=/tmp/x.txt -- npx -y @modelcontextprotocol/server-filesystem /tmp
  echo 'list_notes' | mcpsh run --demo --json

Exit codes:
  0    ok
  1    failure: connect, transport or protocol
  2    usage or invalid arguments (nothing was sent)
  3    the tool returned an error (isError)
  4    refused by policy: confirmation needed, denied by a rule, or --read-only
  5    audit: findings at or above --fail-on (1: the audit could not run in full)
  130  interrupted
For run and test, the worst outcome wins: 130, then 1, then 4, then 3 (test:
1 when an expectation failed, 2 when a script has a mistake).`

// Main runs mcpsh with args and returns the exit status.
func Main(ctx context.Context, args []string, io *iostreams.IOStreams, getenv func(string) (string, bool)) int {
	f := newFactory(io, getenv)
	f.hurry = hurryOf(ctx)
	return execute(ctx, f, args)
}

// execute runs the command args name with f, and returns the exit status.
func execute(ctx context.Context, f *factory, args []string) int {
	io := f.io
	root := newRootCmd(f, args)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	waitSignalsCaught(ctx)
	err := root.ExecuteContext(ctx)
	f.close()
	code := ExitCode(err)
	if err != nil {
		var ee *exitError
		if !errors.As(err, &ee) {
			// The error may quote a server; its words were made safe where they
			// entered the message, and the whole is made safe once more here.
			fmt.Fprintln(io.ErrOut, "mcpsh:", termtext.Sanitize(err.Error()))
		}
		var se *shapeError
		if errors.As(err, &se) {
			fmt.Fprintf(io.ErrOut, "Run '%s --help' for usage.\n", se.cmd)
		}
	}
	return code
}

// newRootCmd is mcpsh: the interactive view (interactive.go), the flags
// every command shares, and the commands. Of these it builds only the one
// args runs, when they run one: building them all (every flag of every
// command) is a third of a millisecond at every start. Help, completion,
// bare mcpsh and a mistyped name get every command, to list or suggest.
func newRootCmd(f *factory, args []string) *cobra.Command {
	root := newInteractiveCmd(f, nil)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &shapeError{usageError{err.Error()}, c.CommandPath()} })
	root.PersistentFlags().StringVar(&f.configPath, "config", "", "read servers from `FILE` (default $MCPSH_CONFIG, then $XDG_CONFIG_HOME/mcpsh/config.json)")
	f.target.register(root.PersistentFlags())
	f.logs.register(root.PersistentFlags())
	all := commands(f)
	if build := chosen(root, all, args); build != nil {
		root.AddCommand(build())
		// cobra would build its completion command and the four beneath it
		// at every run; a command line that runs another has no use for it.
		root.CompletionOptions.DisableDefaultCmd = true
	} else {
		for _, c := range all {
			root.AddCommand(c.build())
		}
	}
	shapeArgs(root)
	return root
}

// namedCmd is one of mcpsh's commands, built on demand.
type namedCmd struct {
	name  string
	build func() *cobra.Command
}

// commands are mcpsh's commands, in the order help lists them.
func commands(f *factory) []namedCmd {
	return []namedCmd{
		{"tools", func() *cobra.Command { return newToolsCmd(f, nil) }},
		{"call", func() *cobra.Command { return newCallCmd(f, nil) }},
		{"run", func() *cobra.Command { return newRunCmd(f, nil) }},
		{"test", func() *cobra.Command { return newTestCmd(f, nil) }},
		{"audit", func() *cobra.Command { return newAuditCmd(f, nil) }},
		{"log", func() *cobra.Command { return newLogCmd(f, nil) }},
		{"servers", func() *cobra.Command { return newServersCmd(f, nil) }},
		{"serve-demo", func() *cobra.Command { return newServeDemoCmd(f, nil) }},
		{"proxy", func() *cobra.Command { return newProxyCmd(f, nil) }},
		{"watch", func() *cobra.Command { return newWatchCmd(f, nil) }},
		{"resources", func() *cobra.Command { return newResourcesCmd(f, nil) }},
		{"read", func() *cobra.Command { return newReadCmd(f, nil) }},
		{"prompts", func() *cobra.Command { return newPromptsCmd(f, nil) }},
		{"prompt", func() *cobra.Command { return newPromptCmd(f, nil) }},
		{"complete", func() *cobra.Command { return newCompleteCmd(f, nil) }},
		{"info", func() *cobra.Command { return newInfoCmd(f, nil) }},
		{"ping", func() *cobra.Command { return newPingCmd(f, nil) }},
		{"task", func() *cobra.Command { return newTaskCmd(f, nil, nil) }},
		{"login", func() *cobra.Command { return newLoginCmd(f, nil) }},
		{"logout", func() *cobra.Command { return newLogoutCmd(f, nil) }},
	}
}

// chosen returns the builder of the command args run, found by cobra's own
// search (the root's flags are in place, and a bare command with only its
// name stands in for each command), or nil when args name none of them.
func chosen(root *cobra.Command, all []namedCmd, args []string) func() *cobra.Command {
	stand := make([]*cobra.Command, len(all))
	for i, c := range all {
		stand[i] = &cobra.Command{Use: c.name}
	}
	root.AddCommand(stand...)
	found, _, err := root.Find(args)
	root.RemoveCommand(stand...)
	if err != nil || found == root {
		return nil
	}
	for i, c := range all {
		if stand[i] == found {
			return c.build
		}
	}
	return nil
}

// shapeArgs makes each command's argument-count error a usage error that
// points at that command's help (cobra's own is a plain error, exit 1).
func shapeArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				return &shapeError{usageError{err.Error()}, c.CommandPath()}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		shapeArgs(sub)
	}
}

// commandAfterDash splits args at "--": what follows is a stdio server's command.
func commandAfterDash(cmd *cobra.Command, args []string) (before, command []string) {
	if i := cmd.ArgsLenAtDash(); i >= 0 {
		return args[:i], args[i:]
	}
	return args, nil
}

// onlyCommand is commandAfterDash for the commands that take nothing but
// the target's flags: any word before "--" is a usage error.
func onlyCommand(cmd *cobra.Command, args []string) (command []string, err error) {
	rest, command := commandAfterDash(cmd, args)
	if len(rest) > 0 {
		return nil, &usageError{fmt.Sprintf("%s takes no arguments before --, got %q", cmd.Name(), rest)}
	}
	return command, nil
}
