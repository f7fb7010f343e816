package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
	"github.com/yosida95/uritemplate/v3"
)

type readFlags struct {
	out    string
	asJSON bool
	follow bool
}

func (a *app) readCmd() *cobra.Command {
	var f readFlags
	cmd := &cobra.Command{
		Use:   "read [target] URI [key=value...] [-- COMMAND ARGS...]",
		Short: "Read a resource",
		Long: `Read a resource and print it: text on stdout; a blob written to --out FILE,
as raw bytes on stdout when stdout is not a terminal, or as a one-line
summary on a terminal.

URI may be a resource template (see mcpsh resources): its variables are then
given as key=value and expanded (RFC 6570) before the resource is read.

--follow subscribes to the resource and prints it again each time the server
says it changed (notifications/resources/updated), until interrupted.
--json prints {"uri": ..., "contents": [...]} (blobs in base64), one object
per read.`,
		Example: `  mcpsh read -s docs file:///README.md
  mcpsh read -s notes 'notes://{folder}/{name}' folder=work name=todo
  mcpsh read -s shots screenshot://latest --out latest.png
  mcpsh read -s metrics metrics://cpu --follow`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) == 0 {
				return &usageError{"read needs a resource URI"}
			}
			uri, err := expandURI(rest[0], rest[1:])
			if err != nil {
				return err
			}
			if f.follow {
				a.withFollow()
			}
			s, err := a.connect(cmd, command)
			if err != nil {
				return err
			}
			defer s.Close()
			if f.follow {
				if err := s.Subscribe(cmd.Context(), uri); err != nil {
					return err
				}
				defer s.Unsubscribe(cmd.Context(), uri)
			}
			for {
				contents, err := s.ReadResource(cmd.Context(), uri)
				if err != nil {
					if f.follow && ctxDone(cmd.Context()) {
						return nil
					}
					return err
				}
				if err := a.printContents(uri, contents, &f); err != nil {
					return err
				}
				if !f.follow {
					return nil
				}
				select {
				case <-cmd.Context().Done():
					return &exitError{ExitInterrupted}
				case <-a.updated:
					fmt.Fprintf(a.io.ErrOut, "mcpsh: %s changed at %s\n", termtext.Line(uri), time.Now().Format("15:04:05"))
				}
			}
		},
	}
	cmd.Flags().StringVarP(&f.out, "out", "o", "", "write the resource to `FILE` (a blob as bytes)")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&f.follow, "follow", false, "subscribe and print the resource again each time it changes")
	return cmd
}

// expandURI expands a resource template with key=value variables; a plain
// URI must come without any.
func expandURI(uri string, vars []string) (string, error) {
	if !strings.Contains(uri, "{") {
		if len(vars) > 0 {
			return "", &usageError{fmt.Sprintf("%s is not a template, so it takes no key=value (got %q)", uri, vars)}
		}
		return uri, nil
	}
	t, err := uritemplate.New(uri)
	if err != nil {
		return "", &usageError{fmt.Sprintf("%s is not a valid URI template: %v", uri, err)}
	}
	values := uritemplate.Values{}
	for _, kv := range vars {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", &usageError{fmt.Sprintf("%q is not key=value", kv)}
		}
		values.Set(k, uritemplate.String(v))
	}
	names := map[string]bool{}
	var missing []string
	for _, name := range t.Varnames() {
		names[name] = true
		if _, ok := values[name]; !ok {
			missing = append(missing, name+"=VALUE")
		}
	}
	if len(missing) > 0 {
		return "", &usageError{fmt.Sprintf("%s needs %s", uri, strings.Join(missing, " "))}
	}
	for k := range values {
		if !names[k] {
			return "", &usageError{fmt.Sprintf("%s has no variable %q", uri, k)}
		}
	}
	out, err := t.Expand(values)
	if err != nil {
		return "", &usageError{fmt.Sprintf("expanding %s: %v", uri, err)}
	}
	return out, nil
}

// printContents writes what one read returned, as the flags ask.
func (a *app) printContents(uri string, contents []client.ResourceContent, f *readFlags) error {
	if f.asJSON {
		if contents == nil {
			contents = []client.ResourceContent{}
		}
		return writeJSONLine(a.io.Out, struct {
			URI      string                   `json:"uri"`
			Contents []client.ResourceContent `json:"contents"`
		}{uri, contents})
	}
	if f.out != "" {
		return a.writeContents(f.out, contents)
	}
	for _, c := range contents {
		switch {
		case c.IsBlob && a.io.StdoutTTY:
			fmt.Fprintln(a.io.Out, describeBlob(c))
			fmt.Fprintln(a.io.ErrOut, "mcpsh: use --out FILE to save it")
		case c.IsBlob:
			if _, err := a.io.Out.Write(c.Blob); err != nil {
				return err
			}
		default:
			text := c.Text
			if a.io.StdoutTTY {
				text = termtext.Sanitize(text)
			}
			fmt.Fprint(a.io.Out, text)
			// On a terminal, and between the reads of --follow, each read
			// ends a line; piped once, the text is passed as it is.
			if (a.io.StdoutTTY || f.follow) && !strings.HasSuffix(text, "\n") {
				fmt.Fprintln(a.io.Out)
			}
		}
	}
	return nil
}

// writeContents writes the contents to path, as curl -o does: a blob as its
// bytes, text as it is; several contents one after another.
func (a *app) writeContents(path string, contents []client.ResourceContent) error {
	var data []byte
	for _, c := range contents {
		if c.IsBlob {
			data = append(data, c.Blob...)
		} else {
			data = append(data, c.Text...)
		}
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return &usageError{fmt.Sprintf("--out %s: %v", path, err)}
	}
	fmt.Fprintf(a.io.ErrOut, "mcpsh: wrote %s (%s)\n", path, client.HumanBytes(len(data)))
	return nil
}
