package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/listing"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// promptsOptions are mcpsh prompts' flags and arguments.
type promptsOptions struct {
	f       *factory
	json    bool
	command []string // a stdio server's command, after --
}

// newPromptsCmd is mcpsh prompts: its flags parsed into the options, then runF, or the run function when runF is nil.
func newPromptsCmd(f *factory, runF func(context.Context, *promptsOptions) error) *cobra.Command {
	opts := &promptsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "prompts [target] [-- COMMAND ARGS...]",
		Short: "List a server's prompts",
		Long: `List the prompts a server offers, with their arguments (required ones
marked *). Get one with: mcpsh prompt NAME key=value...`,
		Example: `  mcpsh prompts -s everything
  mcpsh prompts --json -s everything | jq '.[].name'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			command, err := onlyCommand(cmd, args)
			if err != nil {
				return err
			}
			opts.command = command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return promptsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

// promptsRun lists the server's prompts with their arguments.
func promptsRun(ctx context.Context, opts *promptsOptions) error {
	return listRun(ctx, opts.f, opts.command, opts.json, "prompts", []*client.Prompt{}, func(ctx context.Context, s *client.Session) (*itemListing, error) {
		l, err := s.ListPrompts(ctx)
		if l == nil {
			return nil, err
		}
		ps := l.Prompts
		if ps == nil {
			ps = []*client.Prompt{}
		}
		return &itemListing{warnings: l.Warnings, json: ps, print: func() { opts.printPrompts(l.Prompts) }}, err
	})
}

func (opts *promptsOptions) printPrompts(prompts []*client.Prompt) {
	f := opts.f
	p := f.pal()
	for _, pr := range prompts {
		as := listing.PromptArgs(pr)
		if !f.io.StdoutTTY {
			fmt.Fprintf(f.io.Out, "%s\t%s\t%s\n", termtext.Line(pr.Name), termtext.Line(pr.DisplayName()), strings.Join(as, ","))
			continue
		}
		fmt.Fprintf(f.io.Out, "%s  %s  %s\n", p.Strong(termtext.Line(pr.DisplayName())), p.Muted(termtext.Line(pr.Name)), strings.Join(as, " "))
		if d := termtext.Line(pr.Description); d != "" {
			fmt.Fprintln(f.io.Out, "  "+p.Muted(termtext.Truncate(d, max(f.io.Width-2, 60))))
		}
	}
}

// promptOptions are mcpsh prompt's flags and arguments.
type promptOptions struct {
	f       *factory
	json    bool
	name    string
	values  map[string]string // the prompt's arguments
	command []string          // a stdio server's command, after --
}

// newPromptCmd is mcpsh prompt: its flags parsed into the options, then runF, or the run function when runF is nil.
func newPromptCmd(f *factory, runF func(context.Context, *promptOptions) error) *cobra.Command {
	opts := &promptOptions{f: f}
	cmd := &cobra.Command{
		Use:   "prompt [target] NAME [key=value...] [-- COMMAND ARGS...]",
		Short: "Get a prompt's messages",
		Long: `Get a prompt with its arguments (all strings, given as key=value) and print
its messages: each role, then its text; embedded resources and images as a
one-line summary. --json prints {"description": ..., "messages": [...]}.`,
		Example: `  mcpsh prompt -s everything simple-prompt
  mcpsh prompt -s everything complex-prompt temperature=0.7 style=terse --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) == 0 {
				return &usageError{"prompt needs a prompt NAME (see: mcpsh prompts)"}
			}
			values := map[string]string{}
			for _, kv := range rest[1:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return &usageError{fmt.Sprintf("%q is not key=value", kv)}
				}
				values[k] = v
			}
			opts.name, opts.values, opts.command = rest[0], values, command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return promptRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

// promptRun gets the prompt with its arguments and prints its messages.
func promptRun(ctx context.Context, opts *promptOptions) error {
	f := opts.f
	s, err := f.connect(ctx, opts.command, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	l, err := s.ListPrompts(ctx)
	if l == nil {
		return err
	}
	pr, ferr := findPrompt(s, l.Prompts, opts.name)
	switch {
	case ferr != nil && err != nil:
		// Not among the prompts listed before the listing stopped.
		return err
	case ferr != nil:
		return ferr
	case err != nil:
		f.warn(termtext.Line(err.Error()))
	}
	res, err := s.GetPrompt(ctx, pr, opts.values)
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(f.io.Out, res)
	}
	opts.printPrompt(res)
	return nil
}

func findPrompt(s *client.Session, prompts []*client.Prompt, name string) (*client.Prompt, error) {
	var near []string
	for _, p := range prompts {
		if p.Name == name {
			return p, nil
		}
		if strings.Contains(p.Name, name) || editDistance(p.Name, name) <= 2 {
			near = append(near, termtext.Line(p.Name))
		}
	}
	sort.Strings(near)
	msg := fmt.Sprintf("%s has no prompt %q", termtext.Line(s.Target.Label()), name)
	if len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, ", ") + "?"
	} else {
		msg += " (see: mcpsh prompts)"
	}
	return nil, &usageError{msg}
}

func (opts *promptOptions) printPrompt(res *client.PromptResult) {
	f := opts.f
	p := f.pal()
	if d := termtext.Line(res.Description); d != "" && f.io.StdoutTTY {
		fmt.Fprintln(f.io.Out, p.Muted(d))
		fmt.Fprintln(f.io.Out)
	}
	for i, m := range res.Messages {
		if i > 0 {
			fmt.Fprintln(f.io.Out)
		}
		fmt.Fprintln(f.io.Out, p.Strong("["+termtext.Line(m.Role)+"]"))
		text := m.Block.Summary()
		if f.io.StdoutTTY {
			text = termtext.Sanitize(text)
		}
		fmt.Fprintln(f.io.Out, strings.TrimRight(text, "\n"))
	}
}
