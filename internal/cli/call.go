package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// callFlags are shared by the commands that make calls.
type callFlags struct {
	yes        bool
	readOnly   bool
	timeout    time.Duration
	timeoutMax time.Duration
	retries    int
	retryMax   time.Duration
	json       bool
	noPrompt   bool
}

func (f *callFlags) register(fs *pflag.FlagSet) {
	fs.BoolVarP(&f.yes, "yes", "y", false, "approve calls that need confirmation (destructive tools, untrusted servers)")
	fs.BoolVar(&f.readOnly, "read-only", false, "refuse every call that is not effectively read-only")
	fs.DurationVar(&f.timeout, "timeout", client.DefaultTimeout, "give up on an attempt after `DURATION` without an answer or progress")
	fs.DurationVar(&f.timeoutMax, "timeout-max", client.DefaultMaxDuration, "give up on an attempt after `DURATION` however much progress it reports")
	fs.IntVar(&f.retries, "retries", client.DefaultAttempts, "the most `ATTEMPTS` a replay-safe call may take (read-only or idempotent, trusted server)")
	fs.DurationVar(&f.retryMax, "retry-max", client.DefaultRetryMax, "the most time `DURATION` retries of one call may take")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	fs.BoolVar(&f.noPrompt, "no-prompt", false, "never ask on the terminal: refuse calls that need confirmation unless --yes")
}

// callLimits are the call limits the user set. Those not set stay zero, so
// the server's configured values (or the defaults) apply.
type callLimits struct {
	timeout, maxDuration time.Duration
	attempts             int
	retryMax             time.Duration
}

// call builds a client.Call with the flags' settings.
func (f *callFlags) call(tool *client.Tool, args map[string]any, set callLimits) *client.Call {
	return &client.Call{Tool: tool, Args: args, Mode: policy.Batch, Preapproved: f.yes, OnlyReadOnly: f.readOnly,
		Timeout: set.timeout, MaxDuration: set.maxDuration, Attempts: set.attempts, RetryMax: set.retryMax}
}

// limits are the call limits the user set on cmd's command line.
func (f *callFlags) limits(cmd *cobra.Command) (timeout, maxDur time.Duration, attempts int, retryMax time.Duration) {
	fl := cmd.Flags()
	if fl.Changed("timeout") {
		timeout = f.timeout
		if timeout == 0 {
			timeout = -1 // --timeout 0: no timeout
		}
	}
	if fl.Changed("timeout-max") {
		maxDur = f.timeoutMax
	}
	if fl.Changed("retries") {
		attempts = max(f.retries, 1)
	}
	if fl.Changed("retry-max") {
		retryMax = f.retryMax
	}
	return timeout, maxDur, attempts, retryMax
}

// set is limits as a value an options struct holds.
func (f *callFlags) set(cmd *cobra.Command) callLimits {
	var l callLimits
	l.timeout, l.maxDuration, l.attempts, l.retryMax = f.limits(cmd)
	return l
}

// callOptions are mcpsh call's flags and arguments.
type callOptions struct {
	f       *factory
	calls   callFlags
	limits  callLimits // the limits set on the command line
	example int
	// detach: return once the server has made the call a task, printing
	// its ID, instead of following it to its result.
	detach  bool
	tool    string
	argv    []string // the tool's arguments
	command []string // a stdio server's command, after --
}

// newCallCmd is mcpsh call: its flags parsed into the options, then runF, or the run function when runF is nil.
func newCallCmd(f *factory, runF func(context.Context, *callOptions) error) *cobra.Command {
	opts := &callOptions{f: f}
	cmd := &cobra.Command{
		Use:   "call [target] TOOL [ARGS...] [-- COMMAND ARGS...]",
		Short: "Call one tool",
		Long: `Call one tool and print its result: text on stdout, diagnostics on stderr.

ARGS is one JSON object, or key=value pairs typed by the tool's input schema
(count=3 is a number when the schema says so). key:=JSON passes a JSON value;
an array takes a comma-separated list (tags=a,b). --example N starts from the
tool's Nth input example; ARGS given as well replace its values.

Arguments are checked against the input schema before anything is sent.
A call that needs confirmation (destructive tools, untrusted servers, confirm
rules) asks "Run it? [y/N]" when stdin and stderr are a terminal; otherwise,
or with --no-prompt, it is refused (exit 4) unless --yes: nobody is asked in
a script, and nothing is approved because nobody is there.

A server may run the call as a task (MCP tasks: protocol 2025-11-25's task
augmentation, or the 2026-07-28 tasks extension): the work starts and its
result comes later. call follows the task to its result, printing each of
its status messages on stderr; Ctrl-C cancels the task on the server
(tasks/cancel) and says so. A call whose task was created is never sent
again. With --detach, call prints the task's ID once the task exists and
exits; "mcpsh task get ID" and "mcpsh task cancel ID" act on it later (on an
HTTP server that keeps its tasks: a stdio server ends with mcpsh).`,
		Example: `  mcpsh call --demo get_note id=1
  mcpsh call --demo add_note '{"title":"Buy milk","tags":["home"]}'
  mcpsh call --demo add_note --example 1
  mcpsh call --demo delete_note id=2 --yes
  mcpsh call --json -s fs read_text_file path=/tmp/notes.txt
  mcpsh call --detach --url http://127.0.0.1:3001/mcp research topic=tides`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) == 0 {
				return &usageError{"call needs a TOOL name"}
			}
			opts.tool, opts.argv, opts.command = rest[0], rest[1:], command
			opts.limits = opts.calls.set(cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return callRun(cmd.Context(), opts)
		},
	}
	opts.calls.register(cmd.Flags())
	cmd.Flags().IntVar(&opts.example, "example", 0, "start from the tool's `N`th input example (1-based)")
	cmd.Flags().BoolVar(&opts.detach, "detach", false, "when the server runs the call as a task, print the task's ID and exit instead of waiting for its result")
	return cmd
}

// callRun makes one call and prints how it ended.
func callRun(ctx context.Context, opts *callOptions) error {
	f := opts.f
	if err := f.openLog(); err != nil {
		return err
	}
	s, err := f.connect(ctx, opts.command, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	tool, err := findTool(s, opts.tool)
	if err != nil {
		return err
	}
	callArgs, err := buildArgs(tool, opts.argv, opts.example)
	if err != nil {
		return err
	}
	if n := tool.SchemaNotice(); n != "" {
		f.warn(n)
	}
	c := opts.calls.call(tool, callArgs, opts.limits)
	c.Detach = opts.detach
	if err := f.confirm(ctx, s, c, &opts.calls); err != nil {
		return err
	}
	o, err := f.doCall(ctx, s, c)
	if err != nil {
		return err
	}
	if opts.calls.json {
		if err := writeJSON(f.io.Out, o); err != nil {
			return err
		}
		f.reportWarnings(o)
	} else {
		opts.report(o)
	}
	if code := statusCode(o.Status); code != ExitOK {
		return &exitError{code}
	}
	return nil
}

// report prints a call's result on stdout and its diagnostics on
// stderr. Whatever of the server's reaches stderr is made safe, terminal or
// not: stderr is where people look, and it is often a terminal when stdout is not.
func (opts *callOptions) report(o *client.Outcome) {
	f := opts.f
	p := f.palErr()
	tool := termtext.Line(o.Tool)
	switch o.Status {
	case client.StatusOK:
		fmt.Fprint(f.io.Out, resultText(o.Result, f.io.StdoutTTY))
	case client.StatusTask:
		// The ID alone on stdout, for a script to keep; checked safe to print.
		fmt.Fprintln(f.io.Out, termtext.Line(o.Task.ID))
		fmt.Fprintf(f.io.ErrOut, "mcpsh: %s runs as task %s (%s); see: mcpsh task get %s\n", tool, termtext.Line(o.Task.ID), termtext.Line(string(o.Task.Status)), termtext.Line(o.Task.ID))
	case client.StatusToolError:
		fmt.Fprint(f.io.ErrOut, resultText(o.Result, true))
		fmt.Fprintf(f.io.ErrOut, "mcpsh: %s returned an error (isError)\n", tool)
	case client.StatusRefused:
		fmt.Fprintf(f.io.ErrOut, "mcpsh: %s\n%s", p.Bad(termtext.Sanitize(refusalText(o))), refusalBasis(o))
	default:
		fmt.Fprintf(f.io.ErrOut, "mcpsh: %s %s: %s\n", tool, o.Status, termtext.Sanitize(o.Error))
	}
	f.reportWarnings(o)
}

// findTool looks a tool up, and suggests near names when it is not there.
func findTool(s *client.Session, name string) (*client.Tool, error) {
	if t, ok := s.Tool(name); ok {
		return t, nil
	}
	var near []string
	for _, t := range s.Tools() {
		if strings.Contains(t.Name, name) || strings.Contains(name, t.Name) || editDistance(t.Name, name) <= 2 {
			near = append(near, t.Name)
		}
	}
	sort.Strings(near)
	for i, n := range near {
		near[i] = termtext.Line(n)
	}
	msg := fmt.Sprintf("%s has no tool %q", termtext.Line(s.Target.Label()), name)
	if len(near) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", strings.Join(near, ", "))
	} else {
		msg += " (see: mcpsh tools)"
	}
	return nil, &usageError{msg}
}

// buildArgs merges an input example (when asked for) with the given arguments.
func buildArgs(tool *client.Tool, argv []string, example int) (map[string]any, error) {
	given, err := tool.ParseArgs(argv)
	if err != nil {
		return nil, err
	}
	if example == 0 {
		return given, nil
	}
	if example < 0 || example > len(tool.Examples) {
		return nil, &usageError{fmt.Sprintf("%s has %s; --example %d is out of range", termtext.Line(tool.Name), units.Plural(len(tool.Examples), "input example"), example)}
	}
	args := map[string]any{}
	for k, v := range tool.Examples[example-1] {
		args[k] = v
	}
	for k, v := range given {
		args[k] = v
	}
	return args, nil
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
