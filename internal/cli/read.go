package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/listing"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// readOptions are mcpsh read's flags and arguments.
type readOptions struct {
	f       *factory
	out     string
	asJSON  bool
	follow  bool
	uri     string   // expanded, when a template was given
	command []string // a stdio server's command, after --
}

// newReadCmd is mcpsh read: its flags parsed into the options, then runF, or the run function when runF is nil.
func newReadCmd(f *factory, runF func(context.Context, *readOptions) error) *cobra.Command {
	opts := &readOptions{f: f}
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
			opts.uri, opts.command = uri, command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return readRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.out, "out", "o", "", "write the resource to `FILE` (a blob as bytes)")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&opts.follow, "follow", false, "subscribe and print the resource again each time it changes")
	return cmd
}

// readRun reads the resource and prints it; with --follow, again each time
// the server says it changed.
func readRun(ctx context.Context, opts *readOptions) error {
	f, uri := opts.f, opts.uri
	d := &dial{}
	if opts.follow {
		d.updated = make(chan string, 1)
	}
	s, err := f.connect(ctx, opts.command, d)
	if err != nil {
		return err
	}
	defer s.Close()
	if opts.follow {
		if err := s.Subscribe(ctx, uri); err != nil {
			return err
		}
		defer s.Unsubscribe(ctx, uri)
	}
	for {
		contents, err := s.ReadResource(ctx, uri)
		if err != nil {
			if opts.follow && ctxDone(ctx) {
				return nil
			}
			return err
		}
		if err := opts.printContents(contents); err != nil {
			return err
		}
		if !opts.follow {
			return nil
		}
		select {
		case <-ctx.Done():
			return &exitError{ExitInterrupted}
		case <-d.updated:
			fmt.Fprintf(f.io.ErrOut, "mcpsh: %s changed at %s\n", termtext.Line(uri), time.Now().Format("15:04:05"))
		}
	}
}

// expandURI expands a resource template with key=value variables; a plain
// URI must come without any.
func expandURI(uri string, given []string) (string, error) {
	if !strings.Contains(uri, "{") {
		if len(given) > 0 {
			return "", &usageError{fmt.Sprintf("%s is not a template, so it takes no key=value (got %q)", uri, given)}
		}
		return uri, nil
	}
	vars, err := listing.Vars(uri)
	if err != nil {
		return "", &usageError{fmt.Sprintf("%s is not a valid URI template: %v", uri, err)}
	}
	values := map[string]string{}
	for _, kv := range given {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", &usageError{fmt.Sprintf("%q is not key=value", kv)}
		}
		values[k] = v
	}
	// Every variable is asked for, the optional ones too, as read always
	// has; the view's form asks only for those the path needs.
	names := map[string]bool{}
	var missing []string
	for _, v := range vars {
		names[v.Name] = true
		if _, ok := values[v.Name]; !ok {
			missing = append(missing, v.Name+"=VALUE")
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
	out, err := listing.Expand(uri, values)
	if err != nil {
		return "", &usageError{fmt.Sprintf("expanding %s: %v", uri, err)}
	}
	return out, nil
}

// printContents writes what one read returned, as the flags ask.
func (opts *readOptions) printContents(contents []client.ResourceContent) error {
	f, uri := opts.f, opts.uri
	if opts.asJSON {
		if contents == nil {
			contents = []client.ResourceContent{}
		}
		return writeJSONLine(f.io.Out, struct {
			URI      string                   `json:"uri"`
			Contents []client.ResourceContent `json:"contents"`
		}{uri, contents})
	}
	if opts.out != "" {
		return opts.writeContents(contents)
	}
	for _, c := range contents {
		switch {
		case c.IsBlob && f.io.StdoutTTY:
			fmt.Fprintln(f.io.Out, describeBlob(c))
			fmt.Fprintln(f.io.ErrOut, "mcpsh: use --out FILE to save it")
		case c.IsBlob:
			if _, err := f.io.Out.Write(c.Blob); err != nil {
				return err
			}
		default:
			text := c.Text
			if f.io.StdoutTTY {
				text = termtext.Sanitize(text)
			}
			fmt.Fprint(f.io.Out, text)
			// On a terminal, and between the reads of --follow, each read
			// ends a line; piped once, the text is passed as it is.
			if (f.io.StdoutTTY || opts.follow) && !strings.HasSuffix(text, "\n") {
				fmt.Fprintln(f.io.Out)
			}
		}
	}
	return nil
}

// writeContents writes the contents to path, as curl -o does: a blob as its
// bytes, text as it is; several contents one after another.
func (opts *readOptions) writeContents(contents []client.ResourceContent) error {
	f, path := opts.f, opts.out
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
	fmt.Fprintf(f.io.ErrOut, "mcpsh: wrote %s (%s)\n", path, client.HumanBytes(len(data)))
	return nil
}
