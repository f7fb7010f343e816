package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

// infoJSON is `mcpsh info --json`. Field names are a stable interface.
type infoJSON struct {
	// Server is the server as the user knows it (its configured name, or
	// its command or URL); Name, Title and Version are what it reports.
	Server       string              `json:"server"`
	Name         string              `json:"name"`
	Title        string              `json:"title,omitempty"`
	Version      string              `json:"version"`
	Protocol     string              `json:"protocol"`
	Via          string              `json:"via"`
	Trust        string              `json:"trust"`
	Capabilities client.Capabilities `json:"capabilities"`
	Instructions string              `json:"instructions"`
	// Declared is what mcpsh offered the server in this mode.
	Declared []string `json:"declared"`
}

// infoOptions are mcpsh info's flags and arguments.
type infoOptions struct {
	f       *factory
	json    bool
	command []string // a stdio server's command, after --
}

// newInfoCmd is mcpsh info: its flags parsed into the options, then runF, or the run function when runF is nil.
func newInfoCmd(f *factory, runF func(context.Context, *infoOptions) error) *cobra.Command {
	opts := &infoOptions{f: f}
	cmd := &cobra.Command{
		Use:   "info [target] [-- COMMAND ARGS...]",
		Short: "Show what a server says about itself",
		Long: `Show the server's name and version, the protocol version the handshake
settled on, what the server offers (capabilities), its instructions, and
what mcpsh offered it in return (roots, elicitation).`,
		Example: `  mcpsh info -s everything
  mcpsh info --json --url http://127.0.0.1:3001/mcp | jq .protocol`,
		RunE: func(cmd *cobra.Command, args []string) error {
			command, err := onlyCommand(cmd, args)
			if err != nil {
				return err
			}
			opts.command = command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return infoRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

// infoRun prints what the server says about itself, and what mcpsh offered it.
func infoRun(ctx context.Context, opts *infoOptions) error {
	f := opts.f
	d := &dial{}
	s, err := f.connect(ctx, opts.command, d)
	if err != nil {
		return err
	}
	defer s.Close()
	info := s.Server()
	j := infoJSON{Server: s.Target.Label(), Name: info.Name, Title: info.Title, Version: info.Version, Protocol: info.Protocol,
		Via: s.Target.Via(), Trust: string(s.Target.Trust), Capabilities: info.Capabilities,
		Instructions: info.Instructions, Declared: d.declared(f.target.elicit)}
	if opts.json {
		return writeJSON(f.io.Out, j)
	}
	opts.printInfo(j)
	return nil
}

// declared lists what a batch command offered the server: elicit is --elicit.
func (feat features) declared(elicit string) []string {
	out := []string{}
	if len(feat.roots) > 0 {
		out = append(out, fmt.Sprintf("roots (%d)", len(feat.roots)))
	}
	if feat.elicitor != nil {
		out = append(out, "elicitation (form, answered by --elicit "+elicit+")")
	}
	return out
}

func (opts *infoOptions) printInfo(j infoJSON) {
	p := opts.f.pal()
	w := opts.f.io.Out
	name := termtext.Line(j.Name)
	if j.Title != "" {
		name = termtext.Line(j.Title) + " (" + name + ")"
	}
	fmt.Fprintf(w, "%s reports itself as %s %s\n", p.Strong(termtext.Line(j.Server)), termtext.Truncate(name, 80), termtext.Truncate(termtext.Line(j.Version), 40))
	fmt.Fprintf(w, "protocol      %s\n", termtext.Line(j.Protocol))
	fmt.Fprintf(w, "reached via   %s\n", termtext.Line(j.Via))
	fmt.Fprintf(w, "trust         %s\n", j.Trust)
	c := j.Capabilities
	var offers []string
	add := func(on bool, s string) {
		if on {
			offers = append(offers, s)
		}
	}
	add(c.Tools, "tools"+flag(c.ToolsListChanged, "listChanged"))
	add(c.Resources, "resources"+flag(c.ResourcesSubscribe, "subscribe")+flag(c.ResourcesListChanged, "listChanged"))
	add(c.Prompts, "prompts"+flag(c.PromptsListChanged, "listChanged"))
	add(c.Completions, "completions")
	add(c.Logging, "logging")
	for _, e := range c.Experimental {
		offers = append(offers, "experimental:"+termtext.Line(e))
	}
	for _, e := range c.Extensions {
		offers = append(offers, "extension:"+termtext.Line(e))
	}
	fmt.Fprintf(w, "offers        %s\n", orNone(offers))
	fmt.Fprintf(w, "mcpsh offers  %s\n", orNone(j.Declared))
	if ins := strings.TrimSpace(termtext.Sanitize(j.Instructions)); ins != "" {
		fmt.Fprintf(w, "\n%s\n%s\n", p.Strong("Instructions"), ins)
	}
}

func flag(on bool, name string) string {
	if on {
		return " (" + name + ")"
	}
	return ""
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "nothing"
	}
	return strings.Join(s, ", ")
}

// pingOptions are mcpsh ping's flags and arguments.
type pingOptions struct {
	f       *factory
	count   int
	json    bool
	command []string // a stdio server's command, after --
}

// newPingCmd is mcpsh ping: its flags parsed into the options, then runF, or the run function when runF is nil.
func newPingCmd(f *factory, runF func(context.Context, *pingOptions) error) *cobra.Command {
	opts := &pingOptions{f: f}
	cmd := &cobra.Command{
		Use:   "ping [target] [-- COMMAND ARGS...]",
		Short: "Ping a server and show the round-trip time",
		Long: `Ping a server and show the round-trip time.

Up to protocol 2025-11-25 this sends ping. Protocol 2026-07-28 has no ping
(servers answer it with "Method not found"), so there mcpsh times
server/discover instead: every server of that version answers it, it has no
side effects and no paging, and no client caches its answer, so each one
is a real round trip. Text output names the method when it is not ping;
--json always does ("method"), with the protocol version.`,
		Example: `  mcpsh ping -s everything
  mcpsh ping --count 5 --url http://127.0.0.1:3001/mcp`,
		RunE: func(cmd *cobra.Command, args []string) error {
			command, err := onlyCommand(cmd, args)
			if err != nil {
				return err
			}
			if opts.count < 1 {
				return &usageError{"--count must be at least 1"}
			}
			opts.command = command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return pingRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVarP(&opts.count, "count", "c", 1, "send `N` pings")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

// pingRun pings the server count times and prints each round trip.
func pingRun(ctx context.Context, opts *pingOptions) error {
	f, count := opts.f, opts.count
	s, err := f.connect(ctx, opts.command, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	var rtts []time.Duration
	method, via := s.PingMethod(), ""
	if method != "ping" {
		via = " (" + method + ")"
	}
	for i := 0; i < count; i++ {
		rtt, err := s.Ping(ctx)
		if err != nil {
			return err
		}
		rtts = append(rtts, rtt)
		if !opts.json {
			fmt.Fprintf(f.io.Out, "pong from %s in %s%s\n", termtext.Line(s.Target.Label()), fmtRTT(rtt), via)
		}
	}
	if opts.json {
		ms := make([]float64, len(rtts))
		for i, r := range rtts {
			ms[i] = float64(r.Microseconds()) / 1000
		}
		return writeJSON(f.io.Out, map[string]any{"server": s.Target.Label(), "method": method, "protocol": s.Server().Protocol, "rttMs": ms})
	}
	if count > 1 {
		lo, hi, sum := rtts[0], rtts[0], time.Duration(0)
		for _, r := range rtts {
			lo, hi, sum = min(lo, r), max(hi, r), sum+r
		}
		fmt.Fprintf(f.io.ErrOut, "min %s, avg %s, max %s\n", fmtRTT(lo), fmtRTT(sum/time.Duration(len(rtts))), fmtRTT(hi))
	}
	return nil
}

func fmtRTT(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
