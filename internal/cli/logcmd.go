package cli

import (
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

func (a *app) logCmd() *cobra.Command {
	var q logQuery
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
			q.filter.Server = a.target.server // -s is the root's flag: the server to show
			if err := a.checkLogQuery(&q, args); err != nil {
				return err
			}
			file := a.logs.path
			if len(args) == 1 {
				file = args[0]
			}
			if file != "" {
				return a.showLogFile(cmd, file, q)
			}
			dir, err := sessionlog.SessionsDir(a.getenv)
			if err != nil {
				return &usageError{err.Error()}
			}
			return a.showSessions(cmd, dir, q)
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

// checkLogQuery turns the flags into a filter, or says which one is wrong.
func (a *app) checkLogQuery(q *logQuery, args []string) error {
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
func (a *app) showLogFile(cmd *cobra.Command, file string, q logQuery) error {
	if q.follow {
		fl, err := sessionlog.FollowFile(file, q.filter, true)
		if err != nil {
			return &usageError{err.Error()}
		}
		return a.followLog(cmd, fl, "log "+file, q)
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
	return a.printSessions(func(yield func(sessionlog.SessionRead) bool) { yield(r) }, q)
}

// showSessions shows or follows the sessions in dir that the query selects.
func (a *app) showSessions(cmd *cobra.Command, dir string, q logQuery) error {
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
			return a.followLog(cmd, fl, "session "+s.ID, q)
		}
		sessions = []sessionlog.Session{s}
	}
	if q.follow {
		fl, err := sessionlog.FollowDir(dir, q.filter, q.filter.Since)
		if err != nil {
			return &usageError{fmt.Sprintf("reading the session logs: %v", err)}
		}
		return a.followLog(cmd, fl, fmt.Sprintf("%s in %s", units.Plural(fl.Files(), "session log"), dir), q)
	}
	if len(sessions) == 0 {
		return &usageError{fmt.Sprintf("no session logs in %s yet: calls made with mcpsh are logged there", dir)}
	}
	return a.printSessions(sessionlog.Scan(sessions, q.filter), q)
}

// printSessions prints what the sessions hold that matched: grouped under a
// heading per session for people, JSON lines with --json, or a run script.
func (a *app) printSessions(reads func(func(sessionlog.SessionRead) bool), q logQuery) error {
	pr := &logPrinter{a: a, json: q.json}
	total, sessions := 0, 0
	var err error
	reads(func(r sessionlog.SessionRead) bool {
		if r.Err != nil {
			a.warn(fmt.Sprintf("%s: %v", r.Path, r.Err))
		}
		for _, w := range r.Warnings {
			a.warn(r.Path + ": " + w)
		}
		total += r.Total
		sessions++
		if q.asScript {
			err = writeAsScript(a.io.Out, r.ID, r.Entries)
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
	fmt.Fprintf(a.io.ErrOut, "%s of %d in %s\n", units.Plural(pr.shown, "call"), total, units.Plural(sessions, "session"))
	return nil
}
