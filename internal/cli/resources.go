package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// resourcesOptions are mcpsh resources' flags and arguments.
type resourcesOptions struct {
	f       *factory
	json    bool
	command []string // a stdio server's command, after --
}

// newResourcesCmd is mcpsh resources: its flags parsed into the options, then runF, or the run function when runF is nil.
func newResourcesCmd(f *factory, runF func(context.Context, *resourcesOptions) error) *cobra.Command {
	opts := &resourcesOptions{f: f}
	cmd := &cobra.Command{
		Use:   "resources [target] [-- COMMAND ARGS...]",
		Short: "List a server's resources and resource templates",
		Long: `List the resources a server offers, and its resource templates (URIs with
{variables}), every page of them. Read one with: mcpsh read URI.

On a terminal the two are listed under headings with titles, URIs, types and
sizes; piped, one tab-separated line each (kind, URI, name, type, size).
--json prints {"resources": [...], "templates": [...]}.`,
		Example: `  mcpsh resources -s docs
  mcpsh resources --json -- npx -y @modelcontextprotocol/server-everything | jq '.templates[].uriTemplate'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) > 0 {
				return &usageError{fmt.Sprintf("resources takes no arguments before --, got %q", rest)}
			}
			opts.command = command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return resourcesRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

// resourcesRun lists the server's resources and templates, every page.
func resourcesRun(ctx context.Context, opts *resourcesOptions) error {
	f := opts.f
	s, err := f.connect(ctx, opts.command, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	l, err := s.ListResources(ctx)
	if errors.Is(err, client.ErrNotOffered) {
		fmt.Fprintf(f.io.ErrOut, "mcpsh: %s offers no resources\n", termtext.Line(s.Target.Label()))
		if opts.json {
			return writeJSON(f.io.Out, resourcesJSON{Resources: []*client.Resource{}, Templates: []*client.ResourceTemplate{}})
		}
		return nil
	}
	// A listing stopped at mcpsh's budget still shows what came
	// before the stop, and then fails.
	if l == nil {
		return err
	}
	for _, w := range l.Warnings {
		f.warn(w)
	}
	if opts.json {
		j := resourcesJSON{Resources: l.Resources, Templates: l.Templates}
		if j.Resources == nil {
			j.Resources = []*client.Resource{}
		}
		if j.Templates == nil {
			j.Templates = []*client.ResourceTemplate{}
		}
		if werr := writeJSON(f.io.Out, j); werr != nil {
			return werr
		}
		return err
	}
	opts.printResources(l)
	return err
}

type resourcesJSON struct {
	Resources []*client.Resource         `json:"resources"`
	Templates []*client.ResourceTemplate `json:"templates"`
}

func (opts *resourcesOptions) printResources(l *client.ResourceListing) {
	f := opts.f
	w := f.io.Out
	if !f.io.StdoutTTY {
		for _, r := range l.Resources {
			fmt.Fprintf(w, "resource\t%s\t%s\t%s\t%d\n", termtext.Line(r.URI), termtext.Line(r.DisplayName()), termtext.Line(r.MIMEType), r.Size)
		}
		for _, t := range l.Templates {
			fmt.Fprintf(w, "template\t%s\t%s\t%s\t\n", termtext.Line(t.URITemplate), termtext.Line(t.DisplayName()), termtext.Line(t.MIMEType))
		}
		return
	}
	p := f.pal()
	width := f.io.Width
	if width <= 0 {
		width = 100
	}
	fmt.Fprintln(w, p.Strong(fmt.Sprintf("Resources (%d)", len(l.Resources))))
	for _, r := range l.Resources {
		extra := termtext.Line(r.MIMEType)
		if r.Size > 0 {
			extra += " · " + client.HumanBytes(int(r.Size))
		}
		line := fmt.Sprintf("  %s  %s  %s", termtext.Line(r.DisplayName()), p.Muted(termtext.Line(r.URI)), p.Muted(extra))
		fmt.Fprintln(w, termtext.Truncate(line, width))
	}
	if len(l.Templates) > 0 {
		fmt.Fprintln(w, "\n"+p.Strong(fmt.Sprintf("Templates (%d)", len(l.Templates))))
		for _, t := range l.Templates {
			line := fmt.Sprintf("  %s  %s  %s", termtext.Line(t.DisplayName()), p.Muted(termtext.Line(t.URITemplate)), p.Muted(termtext.Line(t.MIMEType)))
			fmt.Fprintln(w, termtext.Truncate(line, width))
		}
	}
}

// describeBlob is the one-line summary of a blob shown on a terminal.
func describeBlob(c client.ResourceContent) string {
	mime := c.MIMEType
	if mime == "" {
		mime = "unknown type"
	}
	return fmt.Sprintf("[blob %s, %s, %s]", termtext.Line(c.URI), termtext.Line(mime), client.HumanBytes(len(c.Blob)))
}
