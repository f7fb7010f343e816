package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/spf13/cobra"
)

// logQuery is what `mcpsh log` was asked for.
type logQuery struct {
	filter   sessionlog.Filter
	session  string
	since    string
	follow   bool
	json     bool
	asScript bool
}

// logOptions are mcpsh log's flags and argument.
type logOptions struct {
	f *factory
	q logQuery
	// file is the log FILE given, else --log's; "" for the state folder's sessions.
	file string
	// every is how often --follow looks for new entries.
	every time.Duration
}

// followEvery is how often `log --follow` looks for new entries.
const followEvery = 200 * time.Millisecond

// newLogCmd is mcpsh log: its flags parsed into the options, then runF, or the run function when runF is nil.
func newLogCmd(f *factory, runF func(context.Context, *logOptions) error) *cobra.Command {
	opts := &logOptions{f: f, every: followEvery}
	q := &opts.q
	cmd := &cobra.Command{
		Use:   "log [FILE]",
		Short: "Show the calls recorded in the session logs",
		Long: `Show the calls recorded in the session logs: every session in the state
folder, newest first, grouped by session; or one session (--session ID, or
latest); or FILE (a --log file, or openworld.jsonl).

Every call mcpsh makes (run, refused, failed or cancelled) is one JSON line,
written before mcpsh moves on. Open-world calls (tools that may reach outside
systems, and every call to an untrusted server) are marked ◆, and are also
kept in openworld.jsonl next to the sessions folder. Arguments are redacted by
default (--log-args when calling).

The filters combine: --since 2h (or 7d, or an RFC 3339 time), -s/--server NAME,
--tool GLOB, --host GLOB (calls mcpsh proxy made for that host), --status
STATUS, --open-world. With --json, the matching entries
are printed as JSON lines, each naming its session. --follow keeps printing
entries as they are written, by any session, new ones included, until Ctrl-C;
with --since it starts with what was logged since then, with --session or FILE
with the whole session.`,
		Example: `  mcpsh log
  mcpsh log --open-world --since 7d
  mcpsh log --session latest --status failed --tool 'delete_*'
  mcpsh log -s fs --since 2h --json | jq .attempts
  mcpsh log --follow --open-world
  mcpsh log --session latest --as-script > check.txt`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q.filter.Server = f.target.server // -s is the root's flag: the server to show
			if err := q.check(args); err != nil {
				return err
			}
			opts.file = f.logs.path
			if len(args) == 1 {
				opts.file = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return logRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&q.session, "session", "", "only the session `ID` (a file name without .jsonl), or latest")
	fl.StringVar(&q.since, "since", "", "only calls made since `WHEN`: a duration back from now (90m, 2h, 7d) or an RFC 3339 time")
	fl.BoolVar(&q.filter.OpenWorld, "open-world", false, "only open-world calls")
	fl.StringVar(&q.filter.Tool, "tool", "", "only tools whose name matches `GLOB`")
	fl.StringVar(&q.filter.Host, "host", "", "only calls mcpsh proxy made for an agent's host whose name matches `GLOB` (as the host names itself: claude-code, cursor...)")
	fl.StringVar(&q.filter.Status, "status", "", "only calls that ended with `STATUS`: ok, tool_error, failed, refused, cancelled")
	fl.BoolVarP(&q.follow, "follow", "f", false, "keep printing entries as they are written, until Ctrl-C")
	fl.BoolVar(&q.json, "json", false, "print the matching entries as JSON lines, each with its session")
	fl.BoolVar(&q.asScript, "as-script", false, "print one session (--session, default latest) as a run script whose expectations are the outcomes logged")
	return cmd
}

// logRun shows or follows the calls logged in a file or the state folder.
func logRun(ctx context.Context, opts *logOptions) error {
	if opts.file != "" {
		return opts.showLogFile(ctx, opts.file)
	}
	dir, err := sessionlog.SessionsDir(opts.f.getenv)
	if err != nil {
		return &usageError{err.Error()}
	}
	return opts.showSessions(ctx, dir)
}

// check turns the flags into a filter, or says which one is wrong.
func (q *logQuery) check(args []string) error {
	f := &q.filter
	checks := []struct {
		set   bool
		check func() error
	}{
		{f.Status != "", func() error { return sessionlog.ValidStatus(f.Status) }},
		{f.Tool != "", func() error { return sessionlog.ValidTool(f.Tool) }},
		{f.Server != "", func() error { return sessionlog.ValidServer(f.Server) }},
		{f.Host != "", func() error { return sessionlog.ValidHost(f.Host) }},
	}
	for _, c := range checks {
		if c.set {
			if err := c.check(); err != nil {
				return &usageError{err.Error()}
			}
		}
	}
	if q.since != "" {
		t, err := sessionlog.ParseSince(q.since, time.Now())
		if err != nil {
			return &usageError{err.Error()}
		}
		f.Since = t
	}
	switch {
	case len(args) == 1 && q.session != "":
		return &usageError{"give a log FILE or --session ID, not both"}
	case q.asScript && (q.follow || q.json):
		return &usageError{"--as-script prints a script: it goes with neither --follow nor --json"}
	}
	return nil
}

// showLogFile shows or follows one log file.
func (opts *logOptions) showLogFile(ctx context.Context, file string) error {
	q := opts.q
	if q.follow {
		fl, err := sessionlog.FollowFile(file, q.filter, true)
		if err != nil {
			return &usageError{err.Error()}
		}
		return opts.followLog(ctx, fl, "log "+file)
	}
	entries, warnings, err := sessionlog.ReadFile(file)
	if err != nil {
		return &usageError{err.Error()}
	}
	r := sessionlog.SessionRead{Session: sessionlog.Session{ID: sessionlog.IDOf(file), Path: file}, Total: len(entries), Warnings: warnings}
	for _, e := range entries {
		if q.filter.Match(e) {
			r.Entries = append(r.Entries, e)
		}
	}
	return opts.printSessions(func(yield func(sessionlog.SessionRead) bool) { yield(r) })
}

// showSessions shows or follows the sessions in dir that the query selects.
func (opts *logOptions) showSessions(ctx context.Context, dir string) error {
	q := opts.q
	sessions, err := sessionlog.Sessions(dir)
	if err != nil {
		return &usageError{fmt.Sprintf("reading the session logs: %v", err)}
	}
	if q.session != "" || q.asScript {
		id := q.session
		if id == "" {
			id = "latest"
		}
		s, err := sessionlog.Find(sessions, dir, id)
		if err != nil {
			return &usageError{err.Error()}
		}
		if q.follow {
			fl, err := sessionlog.FollowFile(s.Path, q.filter, true)
			if err != nil {
				return &usageError{err.Error()}
			}
			return opts.followLog(ctx, fl, "session "+s.ID)
		}
		sessions = []sessionlog.Session{s}
	}
	if q.follow {
		fl, err := sessionlog.FollowDir(dir, q.filter, q.filter.Since)
		if err != nil {
			return &usageError{fmt.Sprintf("reading the session logs: %v", err)}
		}
		return opts.followLog(ctx, fl, fmt.Sprintf("%s in %s", units.Plural(fl.Files(), "session log"), dir))
	}
	if len(sessions) == 0 {
		return &usageError{fmt.Sprintf("no session logs in %s yet: calls made with mcpsh are logged there", dir)}
	}
	return opts.printSessions(sessionlog.Scan(sessions, q.filter))
}

// printSessions prints what the sessions hold that matched: grouped under a
// heading per session for people, JSON lines with --json, or a run script.
func (opts *logOptions) printSessions(reads func(func(sessionlog.SessionRead) bool)) error {
	f, q := opts.f, opts.q
	pr := &logPrinter{f: f, json: q.json}
	total, sessions := 0, 0
	var err error
	reads(func(r sessionlog.SessionRead) bool {
		if r.Err != nil {
			f.warn(fmt.Sprintf("%s: %v", r.Path, r.Err))
		}
		for _, w := range r.Warnings {
			f.warn(r.Path + ": " + w)
		}
		total += r.Total
		sessions++
		if q.asScript {
			err = writeAsScript(f.io.Out, r.ID, r.Entries)
			return false
		}
		for _, e := range r.Entries {
			if err = pr.print(e); err != nil {
				return false
			}
		}
		return true
	})
	if err != nil || q.json || q.asScript {
		return err
	}
	fmt.Fprintf(f.io.ErrOut, "%s of %d in %s\n", units.Plural(pr.shown, "call"), total, units.Plural(sessions, "session"))
	return nil
}
