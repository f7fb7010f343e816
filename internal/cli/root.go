// Package cli holds mcpsh's commands: flags, streams and exit codes around the
// client, policy and config packages. cmd/mcpsh only wires it to the process.
package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// app is the state one invocation of mcpsh shares between its commands.
type app struct {
	io         *iostreams.IOStreams
	getenv     func(string) (string, bool)
	configPath string
	target     targetFlags

	cfg    *config.File
	cfgErr error

	logs logFlags
	log  *sessionlog.Writer
	// recorder receives every call's outcome (the session log); nil for none.
	recorder func(*client.Outcome) error

	// progress is the status line of the call in flight, which owns stderr
	// while it is drawn; warnings go above it.
	progress atomic.Pointer[progressLine]

	// roots are --root's directories (and the config's), as the client takes them.
	roots []client.Root
	// elicitor answers a server's requests for input in batch mode (--elicit).
	elicitor *elicitor
	// updated receives the URIs of resources the server says changed (read --follow).
	updated chan string
	// stepBuf holds one step of run's output, written at once.
	stepBuf bytes.Buffer
	// trace is --trace's file, opened by the first command that connects.
	trace *traceFile
	// several: this command talks to every configured server (--all).
	several bool
	// stdin reads the answers to confirmations asked on the terminal.
	stdin *bufio.Reader
	// traceHook, when set, also hears each session's messages in wire order
	// (audit --probe puts notifications on the call they arrived during).
	traceHook func(client.Target, func(client.TraceEntry)) func(client.TraceEntry)
	// hurry is closed by a second interrupt (WithHurry).
	hurry <-chan struct{}
}

// warn prints a warning on stderr, above a call's status line if one is drawn.
// It may run on the client's goroutines (Options.OnWarning).
func (a *app) warn(msg string) {
	line := "mcpsh: warning: " + termtext.Line(msg)
	if p := a.progress.Load(); p != nil {
		p.println(line)
		return
	}
	fmt.Fprintln(a.io.ErrOut, line)
}

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
For run, the worst outcome wins: 130, then 1, then 4, then 3.`

// Main runs mcpsh with args and returns the exit status.
func Main(ctx context.Context, args []string, io *iostreams.IOStreams, getenv func(string) (string, bool)) int {
	a := &app{io: io, getenv: getenv, hurry: hurryOf(ctx)}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	err := root.ExecuteContext(ctx)
	if a.log != nil {
		a.log.Close()
	}
	if a.trace != nil {
		if terr := a.trace.Close(); terr != nil {
			fmt.Fprintln(io.ErrOut, "mcpsh: warning: the trace is incomplete:", terr)
		}
	}
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

func (a *app) rootCmd() *cobra.Command {
	var rootCall callFlags
	root := &cobra.Command{
		Use:           "mcpsh",
		Short:         "A terminal client for MCP servers that honours tool annotations",
		Long:          rootHelp,
		Version:       currentVersion().String(),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.interactive(cmd, args, &rootCall)
		},
	}
	root.SetVersionTemplate("{{.Version}}")
	rootCall.register(root.Flags())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &shapeError{usageError{err.Error()}, c.CommandPath()} })
	root.PersistentFlags().StringVar(&a.configPath, "config", "", "read servers from `FILE` (default $MCPSH_CONFIG, then $XDG_CONFIG_HOME/mcpsh/config.json)")
	a.target.register(root.PersistentFlags())
	a.logs.register(root.PersistentFlags())
	root.AddCommand(a.toolsCmd(), a.callCmd(), a.runCmd(), a.auditCmd(), a.logCmd(), a.serversCmd(), a.serveDemoCmd(), a.proxyCmd(), a.watchCmd())
	root.AddCommand(a.resourcesCmd(), a.readCmd(), a.promptsCmd(), a.promptCmd(), a.completeCmd(), a.infoCmd(), a.pingCmd())
	root.AddCommand(a.authCommands()...)
	shapeArgs(root)
	return root
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

// connect resolves the target and opens a session with its tools listed.
func (a *app) connect(cmd *cobra.Command, command []string) (*client.Session, error) {
	t, err := a.resolveTarget(cmd, command)
	if err != nil {
		return nil, err
	}
	if err := a.prepareFeatures(t); err != nil {
		return nil, err
	}
	s, l, err := a.open(cmd.Context(), t, a.roots)
	if err != nil {
		return nil, err
	}
	for _, w := range l.Warnings {
		a.warn(w)
	}
	return s, nil
}

// open connects to t, offering roots and the batch features, and lists its
// tools, within --connect-timeout. prepareFeatures has checked the flags.
func (a *app) open(ctx context.Context, t client.Target, roots []client.Root) (*client.Session, *client.Listing, error) {
	ctx, cancel := context.WithTimeout(ctx, a.target.connectTimeout)
	defer cancel()
	o := a.clientOptionsFor(t)
	a.batchFeatures(o)
	o.Roots = roots
	if a.traceHook != nil {
		o.Trace = a.traceHook(t, o.Trace)
	}
	if a.several {
		// With --all, say which server a warning is about.
		name := termtext.Line(t.Label())
		o.OnWarning = func(w string) { a.warn(name + ": " + w) }
	}
	s, err := client.Connect(ctx, t, o)
	if err != nil {
		return nil, nil, err
	}
	l, err := s.ListTools(ctx)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, l, nil
}

func (a *app) targetGiven(command []string) bool {
	f := &a.target
	return f.demo || f.server != "" || f.url != "" || f.sse != "" || len(command) > 0
}
