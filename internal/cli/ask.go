package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// canAsk reports whether a batch command may ask before a call that needs
// confirmation, as gh does: a person is at the terminal (stdin and stderr
// both are one) and --no-prompt was not given. Otherwise such a call is
// refused with exit 4: a script is never asked, and never auto-approved.
func (a *app) canAsk(f *callFlags) bool {
	return !f.noPrompt && a.io.StdinTTY && a.io.StderrTTY
}

// confirm asks on the terminal about a call policy wants confirmed, and marks
// the call approved or declined. A call that needs no confirmation, or that
// policy refuses outright, is left as it is.
func (a *app) confirm(ctx context.Context, s *client.Session, c *client.Call, f *callFlags) error {
	if !a.canAsk(f) {
		return nil
	}
	c.Mode = policy.Interactive
	d := s.Decide(c)
	if d.Verdict != policy.Ask {
		return nil
	}
	p := a.palErr()
	args, _ := json.Marshal(c.Args)
	fmt.Fprintf(a.io.ErrOut, "%s %s (%s) on %s: %s\n", p.Warn("?"), termtext.Line(c.Tool.Title), termtext.Line(c.Tool.Name),
		termtext.Line(s.Target.Label()), termtext.Line(d.Reason))
	fmt.Fprint(a.io.ErrOut, basisLines(d.Basis))
	if len(args) > 2 {
		fmt.Fprintf(a.io.ErrOut, "  arguments %s\n", termtext.Truncate(termtext.Line(string(args)), max(a.io.Width-12, 40)))
	}
	if d.OpenWorld {
		fmt.Fprintln(a.io.ErrOut, "  open-world: it may reach systems outside this server")
	}
	fmt.Fprint(a.io.ErrOut, "Run it? [y/N] ")
	answer, err := a.readLine(ctx)
	if err != nil {
		fmt.Fprintln(a.io.ErrOut)
		return err
	}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		c.Approved = true
	default:
		c.Declined = true
	}
	return nil
}

// readLine reads one line of the terminal, giving up when ctx ends (Ctrl-C).
func (a *app) readLine(ctx context.Context) (string, error) {
	if a.stdin == nil {
		a.stdin = bufio.NewReader(a.io.In)
	}
	type line struct {
		s   string
		err error
	}
	got := make(chan line, 1)
	go func() {
		s, err := a.stdin.ReadString('\n')
		got <- line{s, err}
	}()
	select {
	case l := <-got:
		// End of input answers no, like an empty line: nothing is approved
		// because nobody is there.
		return l.s, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
