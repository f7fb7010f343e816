package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/listing"
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
			command, err := onlyCommand(cmd, args)
			if err != nil {
				return err
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
	return listRun(ctx, opts.f, opts.command, opts.json, "resources", resourcesJSON{Resources: []*client.Resource{}, Templates: []*client.ResourceTemplate{}}, func(ctx context.Context, s *client.Session) (*itemListing, error) {
		l, err := s.ListResources(ctx)
		if l == nil {
			return nil, err
		}
		j := resourcesJSON{Resources: l.Resources, Templates: l.Templates}
		if j.Resources == nil {
			j.Resources = []*client.Resource{}
		}
		if j.Templates == nil {
			j.Templates = []*client.ResourceTemplate{}
		}
		return &itemListing{warnings: l.Warnings, json: j, print: func() { opts.printResources(l) }}, err
	})
}

type resourcesJSON struct {
	Resources []*client.Resource         `json:"resources"`
	Templates []*client.ResourceTemplate `json:"templates"`
}

// printResources prints the listing's groups: on a terminal under their
// headings, with titles, URIs, types and sizes; piped, a tab-separated line
// an item (kind, URI, name, type, size).
func (opts *resourcesOptions) printResources(l *client.ResourceListing) {
	f := opts.f
	w, p := f.io.Out, f.pal()
	width := f.io.Width
	if width <= 0 {
		width = 100
	}
	for i, g := range listing.Resources(l) {
		if f.io.StdoutTTY {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, p.Strong(g.Heading(false)))
		}
		for _, it := range g.Items {
			var mime, size, facts string
			if it.Kind == listing.Template {
				mime = l.Templates[it.Index].MIMEType
				facts = termtext.Line(mime)
			} else {
				r := l.Resources[it.Index]
				mime, size = r.MIMEType, fmt.Sprint(r.Size)
				facts = strings.Join(listing.ResourceFacts(r), " · ")
			}
			if !f.io.StdoutTTY {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", it.Kind, termtext.Line(it.Name), termtext.Line(it.Title), termtext.Line(mime), size)
				continue
			}
			line := fmt.Sprintf("  %s  %s  %s", termtext.Line(it.Title), p.Muted(termtext.Line(it.Name)), p.Muted(facts))
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
