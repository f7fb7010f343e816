package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/spf13/cobra"
)

// toolsOptions are mcpsh tools' flags and arguments.
type toolsOptions struct {
	f       *factory
	json    bool
	all     bool
	command []string // a stdio server's command, after --
}

// newToolsCmd is mcpsh tools: its flags parsed into the options, then runF, or the run function when runF is nil.
func newToolsCmd(f *factory, runF func(context.Context, *toolsOptions) error) *cobra.Command {
	opts := &toolsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "tools [target] [-- COMMAND ARGS...]",
		Short: "List a server's tools, grouped by safety",
		Long: `List a server's tools grouped by safety class: read-only, write (declared
non-destructive) and destructive (declared, or by the spec's default).

Hints the server left out take the spec's defaults, which assume the worst;
such tools are marked "implied". A tool declared both read-only and
destructive is marked "conflict" and treated as destructive. A name listed
twice takes the strictest reading of its definitions, with a warning.
--json prints one array with, per tool, the effective hints, "conflict", and,
under "declared", only the hints the server sent.

--all lists every configured server's tools, connecting to them in parallel
as a host would (piped, each line starts with the server's name; --json adds
a "server" field); a server that cannot be reached is reported and makes the
exit status 1, after the others are listed.`,
		Example: `  mcpsh tools --demo
  mcpsh tools -s memory --json | jq '.[] | select(.class == "destructive") | .name'
  mcpsh tools -- npx -y @modelcontextprotocol/server-everything`,
		RunE: func(cmd *cobra.Command, args []string) error {
			command, err := onlyCommand(cmd, args)
			if err != nil {
				return err
			}
			opts.command = command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return toolsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print a JSON array")
	cmd.Flags().BoolVar(&opts.all, "all", false, "every configured server")
	return cmd
}

// toolsRun lists the tools of the server named, or of every configured one.
func toolsRun(ctx context.Context, opts *toolsOptions) error {
	f := opts.f
	if opts.all {
		return toolsAll(ctx, opts)
	}
	s, err := f.connect(ctx, opts.command, &dial{listOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	if opts.json {
		return writeJSON(f.io.Out, toolsJSON(s.Tools()))
	}
	if f.io.StdoutTTY {
		f.printToolTable(s)
	} else {
		printToolLines(f.io, s.Tools())
	}
	return nil
}

// toolJSON is one element of `tools --json`. Field names are a stable interface.
type toolJSON struct {
	Name        string       `json:"name"`
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Class       policy.Class `json:"class"`
	ReadOnly    bool         `json:"readOnly"`
	Destructive bool         `json:"destructive"`
	Idempotent  bool         `json:"idempotent"`
	OpenWorld   bool         `json:"openWorld"`
	// Conflict: readOnlyHint and destructiveHint both declared true; the
	// effective hints above take the stricter reading.
	Conflict      bool                       `json:"conflict"`
	Declared      map[string]json.RawMessage `json:"declared"`
	InputExamples []map[string]any           `json:"inputExamples"`
	InputSchema   json.RawMessage            `json:"inputSchema"`
	OutputSchema  json.RawMessage            `json:"outputSchema"`
}

func toolsJSON(tools []*client.Tool) []toolJSON {
	out := make([]toolJSON, 0, len(tools))
	for _, t := range tools {
		e := t.Effective()
		j := toolJSON{
			Name: t.Name, Title: t.Title, Description: t.Description, Class: t.Class(),
			ReadOnly: e.ReadOnly, Destructive: e.Destructive, Idempotent: e.Idempotent, OpenWorld: e.OpenWorld, Conflict: t.Hints.Conflict(),
			Declared: t.Declared, InputExamples: t.Examples, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema,
		}
		if j.Declared == nil {
			j.Declared = map[string]json.RawMessage{}
		}
		if j.InputExamples == nil {
			j.InputExamples = []map[string]any{}
		}
		if j.InputSchema == nil {
			j.InputSchema = json.RawMessage("null")
		}
		if j.OutputSchema == nil {
			j.OutputSchema = json.RawMessage("null")
		}
		out = append(out, j)
	}
	return out
}

// flagWords are the marks shown beside a tool: what its hints mean in practice.
func flagWords(t *client.Tool) []string {
	var w []string
	e := t.Effective()
	if t.Hints.Conflict() {
		w = append(w, "conflict")
	}
	if !e.ReadOnly && e.Idempotent {
		w = append(w, "idempotent")
	}
	if e.OpenWorld {
		w = append(w, "open-world")
	}
	if imp := t.Hints.Implied(); len(imp) > 0 {
		if !t.HasAnnotations {
			w = append(w, "implied:all")
		} else {
			var names []string
			for _, f := range imp {
				names = append(names, strings.TrimSuffix(string(f), "Hint"))
			}
			w = append(w, "implied:"+strings.Join(names, ","))
		}
	}
	return w
}

// allToolJSON is one element of `tools --all --json`: a tool and its server.
type allToolJSON struct {
	Server string `json:"server"`
	toolJSON
}

func toolsAll(ctx context.Context, opts *toolsOptions) error {
	f := opts.f
	rs, err := f.eachServer(ctx, opts.command, &dial{listOnly: true})
	defer closeAll(rs)
	if err != nil {
		return err
	}
	switch {
	case opts.json:
		out := []allToolJSON{}
		for _, r := range rs {
			if r.session == nil {
				continue
			}
			for _, t := range toolsJSON(r.session.Tools()) {
				out = append(out, allToolJSON{Server: r.name, toolJSON: t})
			}
		}
		if err := writeJSON(f.io.Out, out); err != nil {
			return err
		}
	case f.io.StdoutTTY:
		for i, r := range rs {
			if r.session == nil {
				continue
			}
			if i > 0 {
				fmt.Fprintln(f.io.Out)
			}
			f.printToolTable(r.session)
		}
	default:
		for _, r := range rs {
			if r.session == nil {
				continue
			}
			for _, t := range r.session.Tools() {
				fmt.Fprintf(f.io.Out, "%s\t", termtext.Line(r.name))
				printToolLine(f.io.Out, t)
			}
		}
	}
	if f.reportUnreached(rs) {
		return &exitError{ExitFailure}
	}
	return nil
}
