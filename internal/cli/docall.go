package cli

import (
	"context"
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// doCall makes one batch call with its progress and retries shown on stderr.
func (f *factory) doCall(ctx context.Context, s *client.Session, c *client.Call) (*client.Outcome, error) {
	f.raiseHeapFloor()
	prog := f.newProgress(termtext.Line(c.Tool.Name))
	f.progress.Store(prog)
	c.OnProgress = prog.update
	c.OnRetry = func(n client.RetryNotice) {
		prog.println(fmt.Sprintf("mcpsh: %s: attempt %d of %d failed (%s); retrying in %.1fs",
			termtext.Line(c.Tool.Name), n.Attempt, n.Of, termtext.Line(n.Error), n.Wait.Seconds()))
	}
	first := true
	c.OnTask = func(t client.Task) {
		prog.println(taskLine(c.Tool.Name, t, first))
		first = false
	}
	o, err := s.Do(ctx, c)
	f.progress.Store(nil)
	prog.done()
	if o != nil && o.LogError != "" {
		fmt.Fprintf(f.io.ErrOut, "mcpsh: warning: the session log did not record this call: %s\n", o.LogError)
	}
	return o, err
}

// taskLine is one status of a call's task on stderr. The first names the
// task, for a person to look it up later; the rest would only repeat its
// long ID.
func taskLine(tool string, t client.Task, first bool) string {
	return fmt.Sprintf("mcpsh: %s: %s", termtext.Line(tool), taskText(t, first))
}

// taskText is a task's status and the server's words on it, made safe again
// where they are printed; withID puts the task's ID first.
func taskText(t client.Task, withID bool) string {
	text := termtext.Line(string(t.Status))
	if withID {
		text = "task " + termtext.Line(t.ID) + " " + text
	}
	if t.StatusMessage != "" {
		text += ": " + termtext.Line(t.StatusMessage)
	}
	return text
}
