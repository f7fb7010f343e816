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
func (f *factory) canAsk(cf *callFlags) bool {
	return !cf.noPrompt && f.io.StdinTTY && f.io.StderrTTY
}

// confirm asks on the terminal about a call policy wants confirmed, and marks
// the call approved or declined. A call that needs no confirmation, or that
// policy refuses outright, is left as it is.
func (f *factory) confirm(ctx context.Context, s *client.Session, c *client.Call, cf *callFlags) error {
	if !f.canAsk(cf) {
		return nil
	}
	c.Mode = policy.Interactive
	d := s.Decide(c)
	if d.Verdict != policy.Ask {
		return nil
	}
	p := f.palErr()
	args, _ := json.Marshal(c.Args)
	fmt.Fprintf(f.io.ErrOut, "%s %s (%s) on %s: %s\n", p.Warn("?"), termtext.Line(c.Tool.Title), termtext.Line(c.Tool.Name),
		termtext.Line(s.Target.Label()), termtext.Line(d.Reason))
	fmt.Fprint(f.io.ErrOut, basisLines(d.Basis))
	if len(args) > 2 {
		fmt.Fprintf(f.io.ErrOut, "  arguments %s\n", termtext.Truncate(termtext.Line(string(args)), max(f.io.Width-12, 40)))
	}
	if d.OpenWorld {
		fmt.Fprintln(f.io.ErrOut, "  open-world: it may reach systems outside this server")
	}
	fmt.Fprint(f.io.ErrOut, "Run it? [y/N] ")
	answer, err := f.readLine(ctx)
	if err != nil {
		fmt.Fprintln(f.io.ErrOut)
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
func (f *factory) readLine(ctx context.Context) (string, error) {
	if f.stdin == nil {
		f.stdin = bufio.NewReader(f.io.In)
	}
	type line struct {
		s   string
		err error
	}
	got := make(chan line, 1)
	go func() {
		s, err := f.stdin.ReadString('\n')
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
