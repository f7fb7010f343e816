package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
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
"retryMax", and for HTTP servers the OAuth client: "clientId", "clientSecret",
"clientMetadataUrl", "scopes" and "grant" (see mcpsh login --help). ${VAR} and
${VAR:-default} expand from the environment. mcpsh never reads a config file
from the working directory unless you name it.

For HTTP servers it also says whether you are logged in (mcpsh login) and
until when; tokens themselves are never shown.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			logins := a.logins(cfg)
			if asJSON {
				return writeJSON(a.io.Out, serversJSON(cfg, logins))
			}
			if len(cfg.Servers) == 0 {
				fmt.Fprintf(a.io.ErrOut, "no servers configured in %s\n", cfg.Path)
				return nil
			}
			if a.io.StdoutTTY {
				fmt.Fprintf(a.io.Out, "%s\n\n", palette{a.io.Color}.dim(cfg.Path))
			}
			for _, s := range cfg.Servers {
				a.printServer(s, logins[s.Name])
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

func (a *app) printServer(s *config.Server, login *loginState) {
	p := palette{a.io.Color}
	var notes []string
	if s.Trust != "trusted" {
		notes = append(notes, string(s.Trust))
	}
	if n := login.note(); n != "" {
		notes = append(notes, n)
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
	OAuth     *oauthJSON          `json:"oauth,omitempty"`
	Login     *loginState         `json:"login,omitempty"`
	Problem   string              `json:"problem,omitempty"`
}

// oauthJSON is the configured OAuth client, without its secret.
type oauthJSON struct {
	ClientID          string   `json:"clientId,omitempty"`
	ClientSecret      bool     `json:"clientSecret,omitempty"` // whether one is set
	ClientMetadataURL string   `json:"clientMetadataUrl,omitempty"`
	Scopes            []string `json:"scopes,omitempty"`
	Grant             string   `json:"grant,omitempty"`
}

// serversJSON leaves out env and header values and the client secret, which
// hold credentials, and shows the command, args and URL as written, before
// ${VAR} expansion.
func serversJSON(cfg *config.File, logins map[string]*loginState) []serverJSON {
	out := []serverJSON{}
	for _, s := range cfg.Servers {
		j := serverJSON{Name: s.Name, Transport: string(s.Transport), Command: s.CommandShown, Args: s.ArgsShown, URL: s.URLShown,
			Trust: string(s.Trust), Rules: []map[string]string{}, Login: logins[s.Name]}
		if o := s.OAuth; !o.IsZero() {
			j.OAuth = &oauthJSON{ClientID: o.ClientID, ClientSecret: o.ClientSecret != "", ClientMetadataURL: o.ClientMetadataURL, Scopes: o.Scopes, Grant: o.Grant}
		}
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

// loginState is what `servers` says of an HTTP server's OAuth login: never
// the token.
type loginState struct {
	// Status is "logged-in", "expired" (mcpsh renews it on next use),
	// "login-needed" (expired for good, or OAuth configured and no token) or
	// "none" (no token, and nothing says the server wants one).
	Status  string     `json:"status"`
	Expires *time.Time `json:"expires,omitempty"`
	Store   string     `json:"store,omitempty"`
	Problem string     `json:"problem,omitempty"`
}

// logins reads the stored login of every usable HTTP server, by name.
func (a *app) logins(cfg *config.File) map[string]*loginState {
	out := map[string]*loginState{}
	var store client.TokenStore
	var storeErr error
	for _, s := range cfg.Servers {
		if s.Transport != config.HTTP || s.Validate() != nil {
			continue
		}
		if store == nil && storeErr == nil {
			store, storeErr = a.tokenStore()
		}
		if storeErr != nil {
			out[s.Name] = &loginState{Status: "unknown", Problem: storeErr.Error()}
			continue
		}
		info, err := client.LoginStatus(store, s.URL)
		st := &loginState{Status: "none", Store: info.Where}
		switch {
		case err != nil:
			st.Status, st.Problem = "unknown", err.Error()
		case !info.Stored && !s.OAuth.IsZero():
			st.Status = "login-needed"
		case !info.Stored:
		case !info.Usable && s.OAuth.Grant == config.GrantClientCredentials:
			st.Status = "expired" // the configured client gets a new one by itself
		case !info.Usable:
			st.Status = "login-needed"
		case !info.Expiry.IsZero() && !info.Expiry.After(time.Now()):
			st.Status = "expired"
		default:
			st.Status = "logged-in"
		}
		if !info.Expiry.IsZero() {
			e := info.Expiry.UTC()
			st.Expires = &e
		}
		out[s.Name] = st
	}
	return out
}

// note is how the text listing says it; "" when there is nothing to say.
func (l *loginState) note() string {
	if l == nil {
		return ""
	}
	switch l.Status {
	case "logged-in":
		if l.Expires != nil {
			return "logged in (token expires in " + roughDuration(time.Until(*l.Expires)) + ")"
		}
		return "logged in"
	case "expired":
		return "logged in (token expired; renewed on next use)"
	case "login-needed":
		if l.Expires != nil {
			return "login needed (token expired)"
		}
		return "login needed"
	case "unknown":
		return "login unknown: " + termtext.Line(l.Problem)
	}
	return ""
}
