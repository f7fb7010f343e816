package cli

import (
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/spf13/cobra"
)

func (a *app) auditCmd() *cobra.Command {
	var asJSON, all bool
	var format, failOn string
	cmd := &cobra.Command{
		Use:   "audit [target] [-- COMMAND ARGS...]",
		Short: "Check a server's tool annotations, and preview how hosts will treat each tool",
		Long: `Audit a server's tool annotations for QA. Each finding names the tool, a stable
rule ID, a severity, and a message that says what is wrong, what clients will do
because of it, and the fix. Examples: a tool with no annotations (every client
treats it as destructive and asks before each call), destructiveHint left out on
a tool that only adds, readOnlyHint and destructiveHint both true, a name that
says "delete" on a tool declared read-only, input examples that break the input
schema. Name heuristics only warn, and only against hints set explicitly.

The report also previews, for each tool, what mcpsh, VS Code, Claude Code (plan
mode), Cursor (Ask mode) and OpenAI Codex will do with it (run, ask, hide, or
review its results), and how ready the tools are for the Anthropic and OpenAI
app directories.

The exit status is 1 when a finding at or above --fail-on is found, else 0, so
the audit can gate a server's CI. --all audits every configured server, as a
host would see them (a server that cannot be reached also makes it 1).`,
		Example: `  mcpsh audit --demo
  mcpsh audit --json -- node dist/server.js | jq 'group_by(.rule) | map({rule: .[0].rule, n: length})'
  mcpsh audit --format markdown -s mine > audit.md
  mcpsh audit --fail-on error --url http://127.0.0.1:8080/mcp`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest, command := commandAfterDash(cmd, args)
			if len(rest) > 0 {
				return &usageError{fmt.Sprintf("audit takes no arguments before --, got %q", rest)}
			}
			threshold := audit.Severity(failOn)
			if threshold.Rank() == 0 && failOn != "none" {
				return &usageError{fmt.Sprintf("--fail-on %q: want error, warning, info or none", failOn)}
			}
			switch format {
			case "text", "markdown", "json":
			default:
				return &usageError{fmt.Sprintf("--format %q: want text, markdown or json", format)}
			}
			if asJSON {
				format = "json"
			}
			var reports []*audit.Report
			var servers []string
			unreached := false
			if all {
				rs, err := a.eachServer(cmd, command)
				defer closeAll(rs)
				if err != nil {
					return err
				}
				for _, r := range rs {
					if r.session != nil {
						reports, servers = append(reports, auditOf(r.session)), append(servers, r.name)
					}
				}
				unreached = a.reportUnreached(rs)
			} else {
				s, err := a.connect(cmd, command)
				if err != nil {
					return err
				}
				defer s.Close()
				reports, servers = []*audit.Report{auditOf(s)}, []string{s.Target.Label()}
			}
			var findings []audit.Finding
			for i, r := range reports {
				switch format {
				case "markdown":
					r.WriteMarkdown(a.io.Out)
				case "text":
					if i > 0 {
						fmt.Fprintln(a.io.Out)
					}
					r.WriteText(a.io.Out, a.io.Width, a.auditPaint())
				}
				findings = append(findings, r.Findings...)
			}
			if format == "json" {
				if err := a.writeFindings(reports, servers, all); err != nil {
					return err
				}
			}
			if failOn != "none" && audit.AtOrAbove(findings, threshold) {
				c := audit.Count(findings)
				fmt.Fprintf(a.io.ErrOut, "mcpsh: audit found %d error(s), %d warning(s), %d info (failing at --fail-on %s)\n",
					c[audit.Error], c[audit.Warning], c[audit.Info], failOn)
				return &exitError{ExitFailure}
			}
			if unreached {
				return &exitError{ExitFailure}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the findings as a JSON array (same as --format json)")
	cmd.Flags().BoolVar(&all, "all", false, "every configured server (--json adds a \"server\" field to each finding)")
	cmd.Flags().StringVar(&format, "format", "text", "report `FORMAT`: text, markdown or json")
	cmd.Flags().StringVar(&failOn, "fail-on", string(audit.Warning), "exit 1 when a finding is at least `SEVERITY`: error, warning, info, or none")
	return cmd
}

func (a *app) auditPaint() audit.Paint {
	p := palette{a.io.Color}
	return audit.Paint{
		Severity: func(s audit.Severity, t string) string {
			switch s {
			case audit.Error:
				return p.red(t)
			case audit.Warning:
				return p.yellow(t)
			}
			return p.dim(t)
		},
		Dim:  p.dim,
		Bold: p.bold,
	}
}

// auditOf audits a session's tools under the server's own name.
func auditOf(s *client.Session) *audit.Report {
	info := s.Server()
	name := info.Name
	if name == "" {
		name = s.Target.Label()
	} else if info.Version != "" {
		name += " " + info.Version
	}
	return audit.New(name, s.Target.Via(), s.Target.Trust, s.Tools())
}

// serverFinding is a finding of `audit --all --json`: with its server.
type serverFinding struct {
	Server string `json:"server"`
	audit.Finding
}

// writeFindings prints the findings as one JSON array; with --all each names
// its configured server.
func (a *app) writeFindings(reports []*audit.Report, servers []string, all bool) error {
	if !all {
		findings := reports[0].Findings
		if findings == nil {
			findings = []audit.Finding{}
		}
		return writeJSON(a.io.Out, findings)
	}
	out := []serverFinding{}
	for i, r := range reports {
		for _, f := range r.Findings {
			out = append(out, serverFinding{Server: servers[i], Finding: f})
		}
	}
	return writeJSON(a.io.Out, out)
}
