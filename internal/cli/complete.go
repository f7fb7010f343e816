package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// completeOptions are mcpsh complete's flags and arguments.
type completeOptions struct {
	f       *factory
	json    bool
	given   []string // --context's key=value
	ref     client.CompletionRef
	arg     string
	prefix  string
	chosen  map[string]string // --context, parsed
	command []string          // a stdio server's command, after --
}

// newCompleteCmd is mcpsh complete: its flags parsed into the options, then runF, or the run function when runF is nil.
func newCompleteCmd(f *factory, runF func(context.Context, *completeOptions) error) *cobra.Command {
	opts := &completeOptions{f: f}
	cmd := &cobra.Command{
		Use:   "complete [target] PROMPT|TEMPLATE ARG [PREFIX] [-- COMMAND ARGS...]",
		Short: "Ask the server to complete an argument",
		Long: `Ask the server for completions (completion/complete) of a prompt's argument,
or of a resource template's variable, given what has been typed so far
(PREFIX, empty when left out). A name with "{" or "://" is a template,
anything else a prompt. --context key=value gives arguments already chosen.
Prints one value per line; --json prints {"values": [...], "total": N, "hasMore": bool}.`,
		Example: `  mcpsh complete -s everything complex-prompt style f
  mcpsh complete -s notes 'notes://{folder}/{name}' name t --context folder=work`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) < 2 || len(rest) > 3 {
				return &usageError{"complete needs PROMPT|TEMPLATE ARG [PREFIX]"}
			}
			ref := client.CompletionRef{Prompt: rest[0]}
			if strings.Contains(rest[0], "{") || strings.Contains(rest[0], "://") {
				ref = client.CompletionRef{URITemplate: rest[0]}
			}
			prefix := ""
			if len(rest) == 3 {
				prefix = rest[2]
			}
			ctxArgs := map[string]string{}
			for _, kv := range opts.given {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return &usageError{fmt.Sprintf("--context %q is not key=value", kv)}
				}
				ctxArgs[k] = v
			}
			opts.ref, opts.arg, opts.prefix, opts.chosen, opts.command = ref, rest[1], prefix, ctxArgs, command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return completeRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.Flags().StringArrayVar(&opts.given, "context", nil, "an argument already chosen, `key=value` (repeatable)")
	return cmd
}

// completeRun asks the server for completions and prints them.
func completeRun(ctx context.Context, opts *completeOptions) error {
	f := opts.f
	s, err := f.connect(ctx, opts.command, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	c, err := s.Complete(ctx, opts.ref, opts.arg, opts.prefix, opts.chosen)
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(f.io.Out, c)
	}
	for _, v := range c.Values {
		if f.io.StdoutTTY {
			v = termtext.Line(v)
		}
		fmt.Fprintln(f.io.Out, v)
	}
	if c.HasMore {
		fmt.Fprintf(f.io.ErrOut, "mcpsh: more values than these (%d shown)\n", len(c.Values))
	}
	return nil
}
