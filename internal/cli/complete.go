package cli

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

func (a *app) completeCmd() *cobra.Command {
	var asJSON bool
	var given []string
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
			for _, kv := range given {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return &usageError{fmt.Sprintf("--context %q is not key=value", kv)}
				}
				ctxArgs[k] = v
			}
			s, err := a.connect(cmd, command)
			if err != nil {
				return err
			}
			defer s.Close()
			c, err := s.Complete(cmd.Context(), ref, rest[1], prefix, ctxArgs)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.io.Out, c)
			}
			for _, v := range c.Values {
				if a.io.StdoutTTY {
					v = termtext.Line(v)
				}
				fmt.Fprintln(a.io.Out, v)
			}
			if c.HasMore {
				fmt.Fprintf(a.io.ErrOut, "mcpsh: more values than these (%d shown)\n", len(c.Values))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringArrayVar(&given, "context", nil, "an argument already chosen, `key=value` (repeatable)")
	return cmd
}
