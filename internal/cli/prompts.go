package cli

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

func (a *app) promptsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "prompts [target] [-- COMMAND ARGS...]",
		Short: "List a server's prompts",
		Long: `List the prompts a server offers, with their arguments (required ones
marked *). Get one with: mcpsh prompt NAME key=value...`,
		Example: `  mcpsh prompts -s everything
  mcpsh prompts --json -s everything | jq '.[].name'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) > 0 {
				return &usageError{fmt.Sprintf("prompts takes no arguments before --, got %q", rest)}
			}
			s, err := a.connect(cmd, command)
			if err != nil {
				return err
			}
			defer s.Close()
			l, err := s.ListPrompts(cmd.Context())
			if errors.Is(err, client.ErrNotOffered) {
				fmt.Fprintf(a.io.ErrOut, "mcpsh: %s offers no prompts\n", termtext.Line(s.Target.Label()))
				if asJSON {
					return writeJSON(a.io.Out, []*client.Prompt{})
				}
				return nil
			}
			// A listing stopped at mcpsh's budget still shows what came
			// before the stop, and then fails.
			if l == nil {
				return err
			}
			for _, w := range l.Warnings {
				a.warn(w)
			}
			if asJSON {
				if l.Prompts == nil {
					l.Prompts = []*client.Prompt{}
				}
				if werr := writeJSON(a.io.Out, l.Prompts); werr != nil {
					return werr
				}
				return err
			}
			p := a.pal()
			for _, pr := range l.Prompts {
				var as []string
				for _, arg := range pr.Arguments {
					n := termtext.Line(arg.Name)
					if arg.Required {
						n += "*"
					}
					as = append(as, n)
				}
				if !a.io.StdoutTTY {
					fmt.Fprintf(a.io.Out, "%s\t%s\t%s\n", termtext.Line(pr.Name), termtext.Line(pr.DisplayName()), strings.Join(as, ","))
					continue
				}
				fmt.Fprintf(a.io.Out, "%s  %s  %s\n", p.Strong(termtext.Line(pr.DisplayName())), p.Muted(termtext.Line(pr.Name)), strings.Join(as, " "))
				if d := termtext.Line(pr.Description); d != "" {
					fmt.Fprintln(a.io.Out, "  "+p.Muted(termtext.Truncate(d, max(a.io.Width-2, 60))))
				}
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) promptCmd() *cobra.Command {
	var asJSON bool
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
			s, err := a.connect(cmd, command)
			if err != nil {
				return err
			}
			defer s.Close()
			l, err := s.ListPrompts(cmd.Context())
			if l == nil {
				return err
			}
			pr, ferr := findPrompt(s, l.Prompts, rest[0])
			switch {
			case ferr != nil && err != nil:
				// Not among the prompts listed before the listing stopped.
				return err
			case ferr != nil:
				return ferr
			case err != nil:
				a.warn(termtext.Line(err.Error()))
			}
			res, err := s.GetPrompt(cmd.Context(), pr, values)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.io.Out, res)
			}
			a.printPrompt(res)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
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

func (a *app) printPrompt(res *client.PromptResult) {
	p := a.pal()
	if d := termtext.Line(res.Description); d != "" && a.io.StdoutTTY {
		fmt.Fprintln(a.io.Out, p.Muted(d))
		fmt.Fprintln(a.io.Out)
	}
	for i, m := range res.Messages {
		if i > 0 {
			fmt.Fprintln(a.io.Out)
		}
		fmt.Fprintln(a.io.Out, p.Strong("["+termtext.Line(m.Role)+"]"))
		text := m.Block.Summary()
		if a.io.StdoutTTY {
			text = termtext.Sanitize(text)
		}
		fmt.Fprintln(a.io.Out, strings.TrimRight(text, "\n"))
	}
}
