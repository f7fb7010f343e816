package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/spf13/cobra"
)

// auditOptions are mcpsh audit's flags and arguments, and how it connects.
type auditOptions struct {
	f                  *factory
	asJSON, all, probe bool
	format, failOn     string
	probeTimeout       time.Duration
	probeTimeoutSet    bool     // --probe-timeout was given
	command            []string // a stdio server's command, after --
	// dial is audit's own: with --probe, its tap feeds each server's watch.
	dial dial
	// saveBaseline and baseline are --save-baseline's and --baseline's
	// files; base is the baseline read, before anything is sent.
	saveBaseline, baseline string
	base                   *audit.Baseline
}

// audited is one server as audit saw it: its report, or why there is none.
type audited struct {
	name    string // as the user named it: configured name, URL or command
	source  string // the config file it came from, "" for none
	session *client.Session
	report  *audit.Report
	err     error
	notes   []string // what was not done and why (not probed: untrusted)
}

// newAuditCmd is mcpsh audit: its flags parsed into the options, then runF, or the run function when runF is nil.
func newAuditCmd(f *factory, runF func(context.Context, *auditOptions) error) *cobra.Command {
	opts := &auditOptions{f: f}
	cmd := &cobra.Command{
		Use:   "audit [target] [-- COMMAND ARGS...]",
		Short: "Check a server's tool annotations, and preview how hosts will treat each tool",
		Long: `Audit a server's tool annotations for QA. Each finding names the tool, a stable
rule ID, a severity, and a message that says what is wrong, what clients will do
because of it, and the fix. Examples: a tool with no annotations (every client
treats it as destructive and asks before each call), destructiveHint left out on
a tool that only adds, readOnlyHint and destructiveHint both true, a name that
says "delete" on a tool declared read-only, input examples that break the input
schema. Name heuristics only warn, and only against hints set explicitly.

The report also previews, for each tool, what mcpsh, VS Code, Claude Code (plan
mode), Cursor (Ask mode) and OpenAI Codex will do with it (run, ask, hide, or
review its results), and how ready the tools are for the Anthropic and OpenAI
app directories.

--probe also looks at behaviour, on a trusted server only: it lists the tools
again and calls each effectively read-only tool once per input example (a tool
with no examples and no required arguments once with {}), through the normal
call path (session log, retries, --probe-timeout). It reports read-only tools
that made the server announce a change while they ran (tools/list_changed,
resources/updated, resources/list_changed, prompts/list_changed), results that
break the output schema, and examples the tool answers with an error. It never
calls a tool that is not read-only, that has contradictory hints, or that a rule
denies or asks for; examples that break the input schema are never sent.

--save-baseline FILE pins what hosts rely on in each tool: its name, title,
hints as declared and in effect, class, input and output schemas, and a hash of
its declaration. --baseline FILE later compares the server with it, instead of
auditing, and fails (5) when the server weakened something: a tool now claims
to be less dangerous (destructive to not, open-world to closed, newly read-only
or idempotent), a new tool has no annotations or leaves hints to the spec's
defaults, or a schema breaks callers (a required argument added, a type, enum
or range narrowed, an output field no longer guaranteed). Strengthening,
rewording and other changes are listed as information.

--format sarif writes SARIF 2.1.0 for code-scanning dashboards: one run, every
server's results in it (the server is in each result's logical location and
properties), and what could not be audited in the run's invocation.

Exit status, for a CI gate:
  0  no finding at or above --fail-on
  5  findings at or above --fail-on (the audit ran)
  1  the audit could not run, or not all of it: a server could not be reached,
     or a probe call failed (transport, timeout); this outranks 5, so a gate
     never passes a server it could not check
  2  usage error; nothing was sent (--probe on an untrusted server, say)
With --all the worst server decides: 1, then 5, then 0.`,
		Example: `  mcpsh audit --demo
  mcpsh audit --json -- node dist/server.js | jq 'group_by(.rule) | map({rule: .[0].rule, n: length})'
  mcpsh audit --format markdown -s mine > audit.md
  mcpsh audit --fail-on error --url http://127.0.0.1:8080/mcp
  mcpsh audit --probe --format sarif -s mine > mcpsh.sarif
  mcpsh audit --all --probe --probe-timeout 10s --fail-on error
  mcpsh audit --save-baseline mcp-tools.baseline.json -- node dist/server.js
  mcpsh audit --baseline mcp-tools.baseline.json -- node dist/server.js`,
		RunE: func(cmd *cobra.Command, args []string) error {
			command, err := onlyCommand(cmd, args)
			if err != nil {
				return err
			}
			opts.command, opts.probeTimeoutSet = command, cmd.Flags().Changed("probe-timeout")
			if err := opts.check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return auditRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print the findings as a JSON array (same as --format json)")
	cmd.Flags().BoolVar(&opts.all, "all", false, "every configured server (--json adds a \"server\" field to each finding)")
	cmd.Flags().StringVar(&opts.format, "format", "text", "report `FORMAT`: text, markdown, json or sarif (SARIF 2.1.0)")
	cmd.Flags().StringVar(&opts.failOn, "fail-on", string(audit.Warning), "exit 5 when a finding is at least `SEVERITY`: error, warning, info, or none")
	cmd.Flags().BoolVar(&opts.probe, "probe", false, "also call each read-only tool with its input examples and report what it does (trusted servers only)")
	cmd.Flags().StringVar(&opts.saveBaseline, "save-baseline", "", "write what hosts rely on in each tool (hints, class, schemas, a hash of its declaration) to `FILE`, to check later with --baseline")
	cmd.Flags().StringVar(&opts.baseline, "baseline", "", "compare the server with the baseline in `FILE` and report what weakened (exit 5) instead of auditing")
	cmd.Flags().DurationVar(&opts.probeTimeout, "probe-timeout", 0, "give up on a probe call after `DURATION` without an answer (default: the server's timeout, else 1m)")
	return cmd
}

// auditRun audits the server named, or every configured one, and says what
// decides the exit status.
func auditRun(ctx context.Context, opts *auditOptions) error {
	var servers []*audited
	var err error
	if opts.all {
		servers, err = opts.auditAll(ctx)
	} else {
		servers, err = opts.auditOne(ctx)
	}
	defer func() {
		for _, sv := range servers {
			if sv.session != nil {
				sv.session.Close()
			}
		}
	}()
	if err != nil {
		if opts.format == "sarif" && ExitCode(err) == ExitFailure && len(servers) == 1 {
			// A dashboard upload wants a log even when the server was
			// not reached: it says so in the run's invocation.
			servers[0].err = err
			if werr := opts.writeSARIF(servers); werr != nil {
				return werr
			}
		}
		return err
	}
	switch {
	case opts.saveBaseline != "":
		return opts.writeBaseline(servers[0])
	case opts.base != nil:
		opts.compareBaseline(servers[0])
	}
	if err := opts.writeAudit(servers); err != nil {
		return err
	}
	return opts.auditExit(servers)
}

// check validates the flags before anything starts.
func (opts *auditOptions) check() error {
	if threshold := audit.Severity(opts.failOn); threshold.Rank() == 0 && opts.failOn != "none" {
		return &usageError{fmt.Sprintf("--fail-on %q: want error, warning, info or none", opts.failOn)}
	}
	switch opts.format {
	case "text", "markdown", "json", "sarif":
	default:
		return &usageError{fmt.Sprintf("--format %q: want text, markdown, json or sarif", opts.format)}
	}
	if opts.asJSON {
		opts.format = "json"
	}
	if opts.probeTimeoutSet && !opts.probe {
		return &usageError{"--probe-timeout needs --probe"}
	}
	if opts.probeTimeout < 0 {
		return &usageError{fmt.Sprintf("--probe-timeout %s: want a positive duration", opts.probeTimeout)}
	}
	return opts.checkBaseline()
}

// writeAudit prints the reports in the chosen format.
func (opts *auditOptions) writeAudit(servers []*audited) error {
	f := opts.f
	switch opts.format {
	case "json":
		return opts.writeFindings(servers)
	case "sarif":
		return opts.writeSARIF(servers)
	}
	first := true
	for _, sv := range servers {
		if sv.report == nil {
			continue
		}
		switch {
		case opts.base != nil && opts.format == "markdown":
			sv.report.WriteBaselineMarkdown(f.io.Out, opts.base, opts.baseline)
			continue
		case opts.format == "markdown":
			sv.report.WriteMarkdown(f.io.Out)
			continue
		}
		if !first {
			fmt.Fprintln(f.io.Out)
		}
		first = false
		if opts.base != nil {
			sv.report.WriteBaselineText(f.io.Out, opts.base, opts.baseline, f.io.Width, auditPaint(f.pal()))
			continue
		}
		sv.report.WriteText(f.io.Out, f.io.Width, auditPaint(f.pal()))
	}
	return nil
}

// auditExit says on stderr what decides the exit status, and returns it:
// could not run (1) outranks findings (5).
func (opts *auditOptions) auditExit(servers []*audited) error {
	f := opts.f
	var findings []audit.Finding
	incomplete := false
	for _, sv := range servers {
		if sv.err != nil {
			incomplete = true
		}
		if sv.report != nil {
			findings = append(findings, sv.report.Findings...)
			incomplete = incomplete || sv.report.Probe.Incomplete()
		}
	}
	found := opts.failOn != "none" && audit.AtOrAbove(findings, audit.Severity(opts.failOn))
	if found {
		c := audit.Count(findings)
		fmt.Fprintf(f.io.ErrOut, "mcpsh: audit found %d error(s), %d warning(s), %d info (failing at --fail-on %s)\n",
			c[audit.Error], c[audit.Warning], c[audit.Info], opts.failOn)
	}
	switch {
	case incomplete:
		fmt.Fprintln(f.io.ErrOut, "mcpsh: the audit is incomplete (see above): exit 1")
		return &exitError{ExitFailure}
	case found:
		return &exitError{ExitFindings}
	}
	return nil
}

func auditPaint(p palette) audit.Paint {
	return audit.Paint{
		Severity: func(s audit.Severity, t string) string {
			switch s {
			case audit.Error:
				return p.Bad(t)
			case audit.Warning:
				return p.Warn(t)
			}
			return p.Muted(t)
		},
		Dim:  p.Muted,
		Bold: p.Strong,
	}
}

// auditOf audits tools of a session under the server's name as the user
// knows it, and what it reports itself as.
func auditOf(s *client.Session, tools []*client.Tool) *audit.Report {
	return audit.New(client.Identity(s.Target.Label(), s.Server()), s.Target.Via(), s.Target.Trust, tools)
}

// serverFinding is a finding of `audit --all --json`: with its server.
type serverFinding struct {
	Server string `json:"server"`
	audit.Finding
}

// writeFindings prints the findings as one JSON array; with --all each names
// its configured server.
func (opts *auditOptions) writeFindings(servers []*audited) error {
	f := opts.f
	if !opts.all {
		findings := servers[0].report.Findings
		if findings == nil {
			findings = []audit.Finding{}
		}
		return writeJSON(f.io.Out, findings)
	}
	out := []serverFinding{}
	for _, sv := range servers {
		if sv.report == nil {
			continue
		}
		for _, fd := range sv.report.Findings {
			out = append(out, serverFinding{Server: sv.name, Finding: fd})
		}
	}
	return writeJSON(f.io.Out, out)
}

// writeSARIF prints the audit as one SARIF 2.1.0 log.
func (opts *auditOptions) writeSARIF(servers []*audited) error {
	f := opts.f
	in := make([]audit.SARIFServer, 0, len(servers))
	for _, sv := range servers {
		s := audit.SARIFServer{Name: sv.name, Source: sv.source, Report: sv.report, Notes: sv.notes}
		if sv.err != nil {
			s.Err = sv.err.Error()
		}
		in = append(in, s)
	}
	return audit.WriteSARIF(f.io.Out, currentVersion().short(), in)
}
