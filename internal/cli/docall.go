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
	o, err := s.Do(ctx, c)
	f.progress.Store(nil)
	prog.done()
	if o != nil && o.LogError != "" {
		fmt.Fprintf(f.io.ErrOut, "mcpsh: warning: the session log did not record this call: %s\n", o.LogError)
	}
	return o, err
}
