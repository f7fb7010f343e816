package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// itemListing is one listing as mcpsh prompts and mcpsh resources print it.
type itemListing struct {
	warnings []string
	json     any    // what --json prints
	print    func() // the lines, on a terminal or piped
}

// listRun is what the listing commands share: it connects, lists, says
// when the server offers none of what (--json prints none then), passes
// the client's warnings on, and prints what came. A listing stopped at
// mcpsh's budget still shows what came before the stop, and then fails.
func listRun(ctx context.Context, f *factory, command []string, asJSON bool, what string, none any, list func(context.Context, *client.Session) (*itemListing, error)) error {
	s, err := f.connect(ctx, command, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	l, err := list(ctx, s)
	if errors.Is(err, client.ErrNotOffered) {
		fmt.Fprintf(f.io.ErrOut, "mcpsh: %s offers no %s\n", termtext.Line(s.Target.Label()), what)
		if asJSON {
			return writeJSON(f.io.Out, none)
		}
		return nil
	}
	if l == nil {
		return err
	}
	for _, w := range l.warnings {
		f.warn(w)
	}
	if asJSON {
		if werr := writeJSON(f.io.Out, l.json); werr != nil {
			return werr
		}
		return err
	}
	l.print()
	return err
}
