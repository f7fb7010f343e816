package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// taskJSON is `mcpsh task get|cancel --json`. Field names are a stable interface.
type taskJSON struct {
	Server string      `json:"server"`
	Task   client.Task `json:"task"`
	// Result is a completed task's result as the server sent it.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is a failed task's error.
	Error string `json:"error,omitempty"`
}

// taskOptions are mcpsh task get's and task cancel's flags and arguments.
type taskOptions struct {
	f       *factory
	json    bool
	id      string
	command []string // a stdio server's command, after --
}

// newTaskCmd is mcpsh task, with its get and cancel commands.
func newTaskCmd(f *factory, getF, cancelF func(context.Context, *taskOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "task",
		Short: "Look up or cancel a task a server runs",
		Long: `A server may run a tool call as a task (MCP tasks): the work starts, and its
result comes later. "mcpsh call --detach" prints the task's ID and exits;
these commands act on that task later, on the same server (name it with the
same -s, --url or -- COMMAND). A stdio server's tasks end with the server, so
this is for servers that keep theirs: HTTP servers, as a rule.`,
		Example: `  id=$(mcpsh call --detach --url http://127.0.0.1:3001/mcp research topic=tides)
  mcpsh task get --url http://127.0.0.1:3001/mcp "$id"
  mcpsh task cancel --url http://127.0.0.1:3001/mcp "$id"`,
	}
	cmd.AddCommand(newTaskSubCmd(f, "get", "Show a task's status, and its result once it completed",
		`Ask the server once for the task's status and its status message; for a
task that completed, print its result as call does (--json: the task and its
result). It does not wait for the task to end. Exit 0 for a task that is
working, asking for input or completed; 1 when it failed or was cancelled.`, getF, taskGetRun), newTaskSubCmd(f, "cancel", "Cancel a task",
		`Ask the server to cancel the task (tasks/cancel) and print its status as the
server then reports it.`, cancelF, taskCancelRun))
	return cmd
}

func newTaskSubCmd(f *factory, name, short, long string, runF, run func(context.Context, *taskOptions) error) *cobra.Command {
	opts := &taskOptions{f: f}
	cmd := &cobra.Command{
		Use:   name + " [target] ID [-- COMMAND ARGS...]",
		Short: short,
		Long:  long,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) != 1 {
				return &usageError{fmt.Sprintf("task %s needs one task ID (from mcpsh call --detach), got %d arguments", name, len(rest))}
			}
			opts.id, opts.command = rest[0], command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

// taskGetRun prints a task's status, and its result once it completed.
func taskGetRun(ctx context.Context, opts *taskOptions) error {
	f := opts.f
	s, err := f.connect(ctx, opts.command, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	st, err := s.GetTask(ctx, opts.id)
	if err != nil {
		return taskFailure(err)
	}
	if opts.json {
		j := taskJSON{Server: s.Target.Label(), Task: st.Task, Error: st.Error}
		if st.Result != nil {
			j.Result = st.Result.Raw
		}
		if err := writeJSON(f.io.Out, j); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(f.io.ErrOut, taskText(st.Task, true))
		switch {
		case st.Result != nil:
			fmt.Fprint(f.io.Out, resultText(st.Result, f.io.StdoutTTY))
		case st.Error != "":
			fmt.Fprintf(f.io.ErrOut, "mcpsh: %s\n", termtext.Sanitize(st.Error))
		}
	}
	if st.Status == client.TaskFailed || st.Status == client.TaskCancelled {
		return &exitError{ExitFailure}
	}
	return nil
}

// taskCancelRun cancels a task and prints its status as the server reports it.
func taskCancelRun(ctx context.Context, opts *taskOptions) error {
	f := opts.f
	s, err := f.connect(ctx, opts.command, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.CancelTask(ctx, opts.id)
	if err != nil {
		return taskFailure(err)
	}
	if opts.json {
		return writeJSON(f.io.Out, taskJSON{Server: s.Target.Label(), Task: *t})
	}
	fmt.Fprintln(f.io.Out, taskText(*t, true))
	return nil
}

// taskFailure is a task request that got no usable answer, as mcpsh's error.
func taskFailure(err error) error {
	var te *client.TaskError
	if errors.As(err, &te) {
		return errors.New(termtext.Sanitize(te.Msg))
	}
	return err
}
