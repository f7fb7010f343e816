package cli

import (
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// doCall makes one batch call with its progress and retries shown on stderr.
func (a *app) doCall(cmd *cobra.Command, s *client.Session, c *client.Call) (*client.Outcome, error) {
	a.raiseHeapFloor()
	prog := a.newProgress(termtext.Line(c.Tool.Name))
	a.progress.Store(prog)
	c.OnProgress = prog.update
	c.OnRetry = func(n client.RetryNotice) {
		prog.println(fmt.Sprintf("mcpsh: %s: attempt %d of %d failed (%s); retrying in %.1fs",
			termtext.Line(c.Tool.Name), n.Attempt, n.Of, termtext.Line(n.Error), n.Wait.Seconds()))
	}
	o, err := s.Do(cmd.Context(), c)
	a.progress.Store(nil)
	prog.done()
	if o != nil && o.LogError != "" {
		fmt.Fprintf(a.io.ErrOut, "mcpsh: warning: the session log did not record this call: %s\n", o.LogError)
	}
	return o, err
}
