package cli

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

func (a *app) serversCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "servers",
		Short: "List the configured servers",
		Long: `List the servers in the config file: --config FILE, else $MCPSH_CONFIG, else
$XDG_CONFIG_HOME/mcpsh/config.json (~/.config/mcpsh/config.json).

The file uses the "mcpServers" shape of Claude Desktop, Cursor and Claude Code,
or VS Code's "servers" shape, plus mcpsh's own keys per server: "trust"
("trusted" or "untrusted"), "policy" ({"allow": [...], "confirm": [...],
"deny": [...]} of tool-name globs; deny wins), "timeout", "retries" and
"retryMax". ${VAR} and ${VAR:-default} expand from the environment. mcpsh
never reads a config file from the working directory unless you name it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.io.Out, serversJSON(cfg))
			}
			if len(cfg.Servers) == 0 {
				fmt.Fprintf(a.io.ErrOut, "no servers configured in %s\n", cfg.Path)
				return nil
			}
			if a.io.StdoutTTY {
				fmt.Fprintf(a.io.Out, "%s\n\n", palette{a.io.Color}.dim(cfg.Path))
			}
			for _, s := range cfg.Servers {
				a.printServer(s)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

// where is how the server is reached, as it may be shown: ${VAR} references
// unexpanded and secrets redacted.
func where(s *config.Server) string {
	if s.Transport == config.Stdio {
		return strings.Join(append([]string{s.CommandShown}, s.ArgsShown...), " ")
	}
	return s.URLShown
}

func (a *app) printServer(s *config.Server) {
	p := palette{a.io.Color}
	var notes []string
	if s.Trust != "trusted" {
		notes = append(notes, string(s.Trust))
	}
	if n := len(s.Rules); n > 0 {
		notes = append(notes, plural(n, "rule"))
	}
	if err := s.Validate(); err != nil {
		notes = append(notes, p.red("problem: "+err.Error()))
	}
	if !a.io.StdoutTTY {
		fmt.Fprintf(a.io.Out, "%s\t%s\t%s\t%s\n", s.Name, s.Transport, where(s), strings.Join(notes, "; "))
		return
	}
	fmt.Fprintf(a.io.Out, "%s  %s  %s", p.bold(s.Name), p.dim(string(s.Transport)), termtext.Line(where(s)))
	if len(notes) > 0 {
		fmt.Fprintf(a.io.Out, "  (%s)", strings.Join(notes, "; "))
	}
	fmt.Fprintln(a.io.Out)
}

type serverJSON struct {
	Name      string              `json:"name"`
	Transport string              `json:"transport"`
	Command   string              `json:"command,omitempty"`
	Args      []string            `json:"args,omitempty"`
	URL       string              `json:"url,omitempty"`
	Trust     string              `json:"trust"`
	Rules     []map[string]string `json:"rules"`
	Problem   string              `json:"problem,omitempty"`
}

// serversJSON leaves out env and header values, which often hold credentials,
// and shows the command, args and URL as written, before ${VAR} expansion.
func serversJSON(cfg *config.File) []serverJSON {
	out := []serverJSON{}
	for _, s := range cfg.Servers {
		j := serverJSON{Name: s.Name, Transport: string(s.Transport), Command: s.CommandShown, Args: s.ArgsShown, URL: s.URLShown,
			Trust: string(s.Trust), Rules: []map[string]string{}}
		for _, r := range s.Rules {
			j.Rules = append(j.Rules, map[string]string{"pattern": r.Pattern, "action": string(r.Action)})
		}
		if err := s.Validate(); err != nil {
			j.Problem = err.Error()
		}
		out = append(out, j)
	}
	return out
}
