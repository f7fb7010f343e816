package cli

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

func (a *app) logCmd() *cobra.Command {
	var f sessionlog.Filter
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "log [FILE]",
		Short: "Show the calls of a session log",
		Long: `Show the calls recorded in a session log: the latest session's, or FILE.

Every call mcpsh makes (run, refused, failed or cancelled) is one JSON line,
written and synced to disk before mcpsh moves on. Open-world calls (tools that
may reach outside systems, and every call to an untrusted server) are marked.
Arguments are redacted by default (--log-args when calling).
With --json, the matching entries are printed as JSON lines.`,
		Example: `  mcpsh log
  mcpsh log --open-world
  mcpsh log --status failed --tool 'delete_*'
  mcpsh log ~/.local/state/mcpsh/sessions/20261122T061417.123Z-4242.jsonl --json | jq .attempts`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.Status != "" {
				if err := sessionlog.ValidStatus(f.Status); err != nil {
					return &usageError{err.Error()}
				}
			}
			if f.Tool != "" {
				if err := sessionlog.ValidTool(f.Tool); err != nil {
					return &usageError{err.Error()}
				}
			}
			path, err := a.logToRead(args)
			if err != nil {
				return err
			}
			entries, warnings, err := sessionlog.ReadFile(path)
			if err != nil {
				return &usageError{err.Error()}
			}
			for _, w := range warnings {
				fmt.Fprintf(a.io.ErrOut, "mcpsh: warning: %s: %s\n", path, w)
			}
			shown := 0
			for _, e := range entries {
				if !f.Match(e) {
					continue
				}
				shown++
				if asJSON {
					if err := writeJSONLine(a.io.Out, e); err != nil {
						return err
					}
					continue
				}
				if shown == 1 {
					fmt.Fprintf(a.io.Out, "%s\n%s · %s\n\n", palette{a.io.Color}.dim(path), termtext.Line(e.Server), termtext.Line(e.Via))
				}
				a.printLogEntry(e)
			}
			if !asJSON {
				fmt.Fprintf(a.io.ErrOut, "%s of %d\n", plural(shown, "call"), len(entries))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&f.OpenWorld, "open-world", false, "only open-world calls")
	cmd.Flags().StringVar(&f.Tool, "tool", "", "only tools whose name matches `GLOB`")
	cmd.Flags().StringVar(&f.Status, "status", "", "only calls that ended with `STATUS`: ok, tool_error, failed, refused, cancelled")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the matching entries as JSON lines")
	return cmd
}

func (a *app) logToRead(args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	if a.logs.path != "" {
		return a.logs.path, nil
	}
	dir, err := sessionlog.SessionsDir(a.getenv)
	if err != nil {
		return "", &usageError{err.Error()}
	}
	p, err := sessionlog.Latest(dir)
	if err != nil {
		return "", &usageError{err.Error()}
	}
	return p, nil
}

// printLogEntry prints one call: time, status, tool, class, attempts, duration,
// who approved, and the open-world mark; the reason or error on a second line.
func (a *app) printLogEntry(e sessionlog.Entry) {
	p := palette{a.io.Color}
	status := string(e.Status)
	switch e.Status {
	case client.StatusOK:
		status = p.green(pad(status, 10))
	case client.StatusToolError, client.StatusRefused:
		status = p.yellow(pad(status, 10))
	default:
		status = p.red(pad(status, 10))
	}
	mark := "  "
	if e.OpenWorld {
		mark = p.wrap("35", "◆ ")
	}
	who := ""
	if e.ApprovedBy != "" {
		who = " · approved by " + string(e.ApprovedBy)
	}
	fmt.Fprintf(a.io.Out, "%s %s %s%s %s · %s · %s · %.0fms%s\n",
		e.Time.Local().Format("15:04:05"), status, mark, termtext.Line(e.Tool),
		p.dim(termtext.Line(e.Title)), p.class(e.Class, string(e.Class)), plural(len(e.Attempts), "attempt"), e.DurationMS, who)
	var notes []string
	if e.OpenWorld {
		notes = append(notes, "open-world")
	}
	for _, at := range e.Attempts {
		if at.Failure == "" {
			continue
		}
		n := fmt.Sprintf("attempt %d: %s", at.N, at.Failure)
		if at.WaitMS > 0 {
			n += fmt.Sprintf(", waited %.1fs", at.WaitMS/1000)
		}
		notes = append(notes, n)
	}
	if len(notes) > 0 {
		fmt.Fprintf(a.io.Out, "         %s\n", p.dim(strings.Join(notes, "; ")))
	}
	if e.Error != "" {
		fmt.Fprintf(a.io.Out, "         %s\n", termtext.Line(e.Error))
	}
}
