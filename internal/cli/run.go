package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/spf13/cobra"
)

// runOptions are mcpsh run's flags and arguments, and the buffer each
// step's output is written through.
type runOptions struct {
	f        *factory
	calls    callFlags
	limits   callLimits // the limits set on the command line
	failFast bool
	script   []string // the script FILE, "-", or none
	command  []string // a stdio server's command, after --
	// stepBuf holds one step's output, written at once.
	stepBuf bytes.Buffer
}

// newRunCmd is mcpsh run: its flags parsed into the options, then runF, or the run function when runF is nil.
func newRunCmd(f *factory, runF func(context.Context, *runOptions) error) *cobra.Command {
	opts := &runOptions{f: f}
	cmd := &cobra.Command{
		Use:   "run [target] [FILE|-] [-- COMMAND ARGS...]",
		Short: "Run a script of calls over one session",
		Long: `Run a script of calls, one per line, all over one session:

  # comments and blank lines are ignored
  add_note {"title": "Buy milk", "tags": ["home"]}
  add_note title="Call Sam" content='about the "plan"'
  list_notes

Expectations after a call check how it ended, one per line:

  get_note id=2
    expect status ok
    expect text "Shopping list"
  search_notes query=milk
    expect json .matches[0].title == "Shopping list"
    expect json .total == 1
  pop_note
    expect status refused
  get_note id=1
    expect digest sha256:9c1185a5c5e9fc54612808977ee8f548b2258d31…

status is ok, tool_error, refused or failed; text is a JSON string the text
of the result must contain; json takes a path into structuredContent (.key,
["any key"], [N], as in jq) and the JSON value it must have; digest is the
SHA-256 a session log keeps of a result (--log-results), which
mcpsh log --as-script writes when the log kept no more. A line whose
first word is expect is always an expectation: call a tool named expect as
'expect'. Indenting them is optional.

Every line is checked (tool names, argument types, input schemas, the
expectations) before the first call is sent: a script with a mistake runs
nothing and exits 2, and so does one that still holds <FILL>, the placeholder
mcpsh log --as-script writes for an argument the log did not keep.
FILE "-" or no FILE reads the script from standard input.

With --json, each call prints one JSON object on its own line: line, tool,
title, class, flags, decision, reason, attempts, status, durationMs, content,
structuredContent, isError, error, and expectations (each with line, kind,
path, expected, got, ok, note). A failed expectation is reported on stderr
with its line, what was expected and what came. --fail-fast stops at the
first call that fails an expectation or, when its status is not expected,
does not end ok.

The exit status is the worst of: 130 (interrupted), 1 (a failure, or a failed
expectation), 4 (refused), 3 (tool error), else 0. A call whose status is
expected, and comes, adds nothing to it: "expect status refused" turns a
refusal into a pass.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) > 1 {
				return &usageError{fmt.Sprintf("run takes one script FILE, got %q", rest)}
			}
			opts.script, opts.command = rest, command
			opts.limits = opts.calls.set(cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRun(cmd.Context(), opts)
		},
	}
	opts.calls.register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.failFast, "fail-fast", false, "stop at the first call that fails an expectation or does not end ok")
	return cmd
}

// runRun checks the whole script against the server, then runs its calls.
func runRun(ctx context.Context, opts *runOptions) error {
	name, r, err := opts.openScript()
	if err != nil {
		return err
	}
	defer r.Close()
	if err := opts.f.openLog(); err != nil {
		return err
	}
	rep, err := opts.runScript(ctx, name, r)
	if err != nil {
		return err
	}
	if len(rep.mistakes) > 0 {
		return opts.scriptErrors(rep.mistakes)
	}
	if rep.code != ExitOK {
		return &exitError{rep.code}
	}
	return nil
}

// runScript parses one script, connects, checks every line against the
// server, and runs the calls if all is well: what run does with its script,
// and mcpsh test with each of its own, over a session of its own. The
// report's mistakes are the script's, by line (nothing was sent then); an
// error is the connection's.
func (opts *runOptions) runScript(ctx context.Context, name string, r io.Reader) (*scriptReport, error) {
	f := opts.f
	lines, syntaxErrs := parseScript(name, r)
	s, err := f.connect(ctx, opts.command, nil)
	if err != nil {
		if len(syntaxErrs) > 0 {
			return &scriptReport{mistakes: syntaxErrs, code: ExitUsage}, nil
		}
		return nil, err
	}
	defer s.Close()
	// Lines that parsed are checked against the server too, so one pass
	// reports every mistake in the script.
	calls, errs := resolveScript(s, name, lines)
	if errs = append(syntaxErrs, errs...); len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].(*scriptError).line < errs[j].(*scriptError).line })
		return &scriptReport{mistakes: errs, code: ExitUsage}, nil
	}
	return opts.runCalls(ctx, s, name, calls)
}

func (opts *runOptions) openScript() (string, io.ReadCloser, error) {
	rest, f := opts.script, opts.f
	if len(rest) == 0 || rest[0] == "-" {
		if len(rest) == 0 && f.io.StdinTTY {
			return "", nil, &usageError{"run needs a script: give a FILE, or pipe one to standard input"}
		}
		return "<stdin>", io.NopCloser(f.io.In), nil
	}
	file, err := os.Open(rest[0])
	if err != nil {
		return "", nil, &usageError{err.Error()}
	}
	return rest[0], file, nil
}

// scriptErrors reports every mistake in a script at once, then exits 2.
func (opts *runOptions) scriptErrors(errs []error) error {
	f := opts.f
	for _, e := range errs {
		fmt.Fprintln(f.io.ErrOut, "mcpsh:", e)
	}
	fmt.Fprintf(f.io.ErrOut, "mcpsh: %s in the script; nothing was sent\n", units.Plural(len(errs), "error"))
	return &exitError{ExitUsage}
}

type scriptCall struct {
	line    int
	tool    *client.Tool
	args    map[string]any
	expects []expectation
}

// resolveScript checks every line against the server's tools and schemas.
func resolveScript(s *client.Session, file string, lines []scriptLine) ([]scriptCall, []error) {
	var calls []scriptCall
	var errs []error
	for _, l := range lines {
		tool, err := findTool(s, l.Tool)
		if err == nil && l.Unfilled {
			continue // its placeholders are reported; its values mean nothing yet
		}
		if err == nil {
			var args map[string]any
			if args, err = tool.ParseArgs(l.Argv); err == nil {
				if err = tool.Validate(args); err == nil {
					calls = append(calls, scriptCall{line: l.N, tool: tool, args: args, expects: l.Expects})
					continue
				}
			}
		}
		errs = append(errs, &scriptError{file, l.N, err.Error()})
	}
	return calls, errs
}

// runRecord is one line of run --json.
type runRecord struct {
	Line int `json:"line"`
	*client.Outcome
	Expectations []expectResult `json:"expectations"`
}

// scriptReport is how one script went.
type scriptReport struct {
	// mistakes are the script's, by line: nothing was sent.
	mistakes []error
	steps    []scriptStep
	// notRun are the calls left when the run stopped early.
	notRun         []scriptCall
	checked, unmet int
	counts         map[client.Status]int
	// code is the script's exit status; statusCode the part of it that
	// does not come from failed expectations.
	code, statusCode int
}

// scriptStep is one call made, and its expectations checked.
type scriptStep struct {
	call    scriptCall
	outcome *client.Outcome
	results []expectResult
	// failures say, by file and line, which expectations failed.
	failures []string
	// owned: the call's status was expected, so it is the expectation's to judge.
	owned bool
}

func (opts *runOptions) runCalls(ctx context.Context, s *client.Session, file string, calls []scriptCall) (*scriptReport, error) {
	f, cf := opts.f, &opts.calls
	p := f.pal()
	rep := &scriptReport{counts: map[client.Status]int{}, code: ExitOK, statusCode: ExitOK}
	for i, c := range calls {
		if err := ctx.Err(); err != nil {
			rep.code = worse(rep.code, ExitInterrupted)
			rep.notRun = calls[i:]
			break
		}
		call := cf.call(c.tool, c.args, opts.limits)
		call.Checked = c.tool // resolveScript validated the arguments
		if err := f.confirm(ctx, s, call, cf); err != nil {
			rep.code = worse(rep.code, ExitInterrupted)
			rep.notRun = calls[i:]
			break
		}
		o, err := f.doCall(ctx, s, call)
		if err != nil {
			return nil, err // validated above; only a bug lands here
		}
		rep.counts[o.Status]++
		step := scriptStep{call: c, outcome: o, results: checkAll(c.expects, o), owned: statusExpected(c.expects)}
		for j, r := range step.results {
			if !r.OK {
				step.failures = append(step.failures, fmt.Sprintf("%s:%d: %s", file, r.Line, c.expects[j].failure(r, o)))
			}
		}
		failed := len(step.failures)
		rep.steps = append(rep.steps, step)
		rep.checked, rep.unmet = rep.checked+len(step.results), rep.unmet+failed
		// An expected status is the expectation's to judge; an interruption
		// is never a pass.
		if !step.owned || o.Status == client.StatusCancelled {
			rep.statusCode = worse(rep.statusCode, statusCode(o.Status))
		}
		rep.code = worse(rep.code, rep.statusCode)
		if failed > 0 {
			rep.code = worse(rep.code, ExitFailure)
		}
		if cf.json {
			if err := writeJSONLine(f.io.Out, runRecord{Line: c.line, Outcome: o, Expectations: step.results}); err != nil {
				return nil, err
			}
		} else {
			opts.printRunStep(p, c, o, failed)
		}
		f.reportWarnings(o)
		for _, msg := range step.failures {
			fmt.Fprintln(f.io.ErrOut, "mcpsh: "+msg)
		}
		if o.Status == client.StatusCancelled {
			rep.notRun = calls[i+1:]
			break
		}
		if opts.failFast && (failed > 0 || !step.owned && o.Status != client.StatusOK) {
			if left := len(calls) - i - 1; left > 0 {
				fmt.Fprintf(f.io.ErrOut, "mcpsh: stopped at line %d (--fail-fast): %s not run\n", c.line, units.Plural(left, "call"))
			}
			rep.notRun = calls[i+1:]
			break
		}
	}
	line := "mcpsh: " + summary(len(rep.steps), rep.counts)
	switch {
	case rep.unmet > 0:
		line += fmt.Sprintf("; %d of %s failed", rep.unmet, units.Plural(rep.checked, "expectation"))
	case rep.checked > 0:
		line += "; " + units.Plural(rep.checked, "expectation") + " met"
	}
	fmt.Fprintln(f.io.ErrOut, line)
	if errors.Is(ctx.Err(), context.Canceled) {
		rep.code = worse(rep.code, ExitInterrupted)
		rep.statusCode = worse(rep.statusCode, ExitInterrupted)
	}
	return rep, nil
}

func (opts *runOptions) printRunStep(p palette, c scriptCall, o *client.Outcome, failed int) {
	f := opts.f
	status := string(o.Status)
	switch o.Status {
	case client.StatusOK:
		status = p.Good(status)
	case client.StatusToolError, client.StatusRefused:
		status = p.Warn(status)
	default:
		status = p.Bad(status)
	}
	unmet := ""
	if failed > 0 {
		unmet = " · " + p.Bad(fmt.Sprintf("%d of %s failed", failed, units.Plural(len(c.expects), "expectation")))
	}
	// One write a step: stdout is not buffered, and a write is a system call.
	b := &opts.stepBuf
	b.Reset()
	fmt.Fprintf(b, "%s %s (%s) · %s · %s%s\n", p.Muted(fmt.Sprintf("[line %d]", c.line)),
		termtext.Line(o.Title), termtext.Line(o.Tool), status, units.MS(o.DurationMS), unmet)
	switch o.Status {
	case client.StatusOK, client.StatusToolError:
		b.WriteString(indent(resultText(o.Result, f.io.StdoutTTY)))
	case client.StatusRefused:
		b.WriteString(indent(termtext.Sanitize(refusalText(o)) + "\n" + refusalBasis(o)))
	default:
		b.WriteString(indent(termtext.Sanitize(o.Error)))
	}
	f.io.Out.Write(b.Bytes())
	if b.Cap() > 1<<20 {
		// One huge result must not hold its memory for the rest of the run.
		opts.stepBuf = bytes.Buffer{}
	}
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") + "\n"
}

func summary(ran int, counts map[client.Status]int) string {
	var parts []string
	for _, st := range []client.Status{client.StatusOK, client.StatusToolError, client.StatusRefused, client.StatusFailed, client.StatusCancelled} {
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ReplaceAll(string(st), "_", " ")))
		}
	}
	s := units.Plural(ran, "call")
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}
