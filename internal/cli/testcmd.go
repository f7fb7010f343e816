package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// testOptions are mcpsh test's flags and arguments.
type testOptions struct {
	f       *factory
	calls   callFlags
	limits  callLimits
	paths   []string // the DIRs and FILEs named, or none for ./mcpsh-tests
	command []string // a stdio server's command, after --
	jobs    int
	junit   string
	update  bool
	// progress, on a terminal, prints a line as each script finishes.
	progress sync.Mutex
	finished int
}

// newTestCmd is mcpsh test: its flags parsed into the options, then runF, or the run function when runF is nil.
func newTestCmd(f *factory, runF func(context.Context, *testOptions) error) *cobra.Command {
	opts := &testOptions{f: f}
	cmd := &cobra.Command{
		Use:   "test [target] [DIR|FILE...] [-- COMMAND ARGS...]",
		Short: "Run a folder of scripts as a test suite",
		Long: `Run every *.mcpsh script in the folders and files named (default:
./mcpsh-tests, at any depth), each over a session of its own, several at
once (--jobs), and report which expectations failed:

  mcpsh test --demo                      # ./mcpsh-tests against the demo
  mcpsh test -s notes tests/notes/       # a folder against a configured server
  mcpsh test --junit report.xml          # scripts that name their own server
  mcpsh test --demo --update             # accept what the server answers now
  mcpsh test --demo --protocol 2025-06-18

A script is a run script (see mcpsh run --help): calls, each followed by
expect lines. mcpsh log --as-script writes one from a session, expecting
what the log kept of each result. A script may name its own server in a
comment above its first call, so one folder can test several servers:

  # target: --demo
  # target: -s notes
  # target: --url https://mcp.example.com/mcp --bearer-env MCP_TOKEN
  # target: -- node ./server.js --stdio

The script's target wins over the command line's, which serves the
scripts that name none. The command line's --protocol, --connect-timeout,
--root, --elicit and --server-log hold for every script, and so does
--untrusted. A script starts what its target line says: run only scripts
you trust, as you would a Makefile.

Each script is checked whole before its first call (a mistake fails that
script, nothing of it is sent), then run in order; scripts run in
parallel and share nothing but the session log. Calls needing
confirmation are refused unless --yes: nobody is asked.

--update rewrites each failing expectation to what came (the status, the
whole text, the value at the path, the digest), keeping every other byte
of the file, and says what it changed; an expectation with nothing to
take its place (the call ended without a result) is left as it is.
--junit FILE writes JUnit XML: a testsuite per script, a testcase per
call, a failure per call whose expectations failed, with file:line.

On a terminal a line is printed on stderr as each script finishes. The
report (failing scripts, then the counts) goes to stdout; --json prints
it as one object.

The exit status is 0 when every script passed, 1 when an expectation
failed or a script could not connect, 2 when a script has a mistake, and
otherwise the worst of what run would exit with (130, 1, 2, 4, 3).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths, opts.command = commandAfterDash(cmd, args)
			if opts.jobs < 1 {
				return &usageError{fmt.Sprintf("--jobs %d: want 1 or more", opts.jobs)}
			}
			opts.limits = opts.calls.set(cmd)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return testRun(cmd.Context(), opts)
		},
	}
	opts.calls.register(cmd.Flags())
	cmd.Flags().Lookup("json").Usage = "print the report as one JSON object"
	cmd.Flags().MarkHidden("no-prompt") // nobody is asked: scripts run side by side
	cmd.Flags().IntVarP(&opts.jobs, "jobs", "j", min(4, runtime.NumCPU()), "run up to `N` scripts at once")
	cmd.Flags().StringVar(&opts.junit, "junit", "", "write a JUnit XML report to `FILE`")
	cmd.Flags().BoolVar(&opts.update, "update", false, "rewrite each failing expectation to what came, keeping the rest of the file")
	return cmd
}

// testResult is how one script of the suite went.
type testResult struct {
	script *testScript
	report *scriptReport // nil when it could not run
	err    error         // why it could not run: its header, or the connection
	// output is what the script's run said on stderr (warnings).
	output string
	took   time.Duration
	// updates are the lines --update rewrote; notUpdated the failures it
	// could not.
	updates    []lineUpdate
	notUpdated []string
}

func testRun(ctx context.Context, opts *testOptions) error {
	f := opts.f
	paths, err := findScripts(opts.paths)
	if err != nil {
		return err
	}
	if err := f.openLog(); err != nil {
		return err
	}
	if f.logs.trace != "" && f.trace == nil {
		tf, err := openTrace(f.logs.trace)
		if err != nil {
			return err
		}
		f.trace = tf
	}
	results := make([]*testResult, len(paths))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(opts.jobs, len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = opts.runOne(ctx, readScript(paths[i], f.target))
				opts.finish(results[i], len(paths))
			}
		}()
	}
	for i := range paths {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if opts.update {
		for _, r := range results {
			if r != nil {
				opts.updateScript(r)
			}
		}
	}
	sum := summarize(results)
	if opts.junit != "" {
		if err := writeJUnitFile(opts.junit, results); err != nil {
			return err
		}
	}
	if opts.calls.json {
		if err := writeJSON(f.io.Out, sum.json(results)); err != nil {
			return err
		}
	} else {
		opts.printReport(results, sum)
	}
	if sum.code != ExitOK {
		return &exitError{sum.code}
	}
	return nil
}

// runOne runs one script over its own session, with a factory of its own
// whose stdout is dropped (a call's result is not the report) and whose
// stderr is kept for the report.
func (opts *testOptions) runOne(ctx context.Context, ts *testScript) *testResult {
	res := &testResult{script: ts}
	if ts.headerErr != nil {
		var se *scriptError
		if errors.As(ts.headerErr, &se) {
			res.report = &scriptReport{mistakes: []error{se}, code: ExitUsage}
		} else {
			res.err = ts.headerErr // the file could not be read
		}
		return res
	}
	var errOut bytes.Buffer
	f := opts.f.forScript(&iostreams.IOStreams{In: strings.NewReader(""), Out: discard{}, ErrOut: &errOut, Width: opts.f.io.Width}, ts.target)
	command := opts.command
	if ts.pinLine > 0 {
		command = ts.command
	}
	ro := &runOptions{f: f, calls: opts.calls, limits: opts.limits, command: command}
	ro.calls.json = false
	start := time.Now()
	res.report, res.err = ro.runScript(ctx, ts.path, bytes.NewReader(ts.data))
	res.took = time.Since(start)
	res.output = errOut.String()
	return res
}

// forScript is a factory for one script of a suite: its streams and
// target, and the session log, trace, config and environment of f. What it
// loads lazily (the config, other hosts' servers) it loads for itself, so
// scripts running side by side share nothing that changes.
func (f *factory) forScript(streams *iostreams.IOStreams, t targetFlags) *factory {
	return &factory{io: streams, getenv: f.getenv, getwd: f.getwd, newDemo: f.newDemo, syncLog: f.syncLog, hurry: f.hurry,
		configPath: f.configPath, target: t, cfg: f.cfg, cfgErr: f.cfgErr,
		logs: f.logs, log: f.log, recorder: f.recorder, trace: f.trace}
}

// finish prints, on a terminal, a line for a script that finished.
func (opts *testOptions) finish(r *testResult, total int) {
	f := opts.f
	opts.progress.Lock()
	defer opts.progress.Unlock()
	opts.finished++
	if !f.io.StderrTTY {
		return
	}
	p := f.palErr()
	mark := p.Good("ok  ")
	if !r.passed() {
		mark = p.Bad("FAIL")
	}
	fmt.Fprintf(f.io.ErrOut, "%s %s %s %s\n", p.Muted(fmt.Sprintf("[%d/%d]", opts.finished, total)), mark,
		termtext.Line(r.script.path), p.Muted("("+r.counts()+")"))
}
