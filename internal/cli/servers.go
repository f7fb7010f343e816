package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/spf13/cobra"
)

// serversOptions are mcpsh servers' flags.
type serversOptions struct {
	f    *factory
	json bool
}

// newServersCmd is mcpsh servers: its flags parsed into the options, then runF, or the run function when runF is nil.
func newServersCmd(f *factory, runF func(context.Context, *serversOptions) error) *cobra.Command {
	opts := &serversOptions{f: f}
	cmd := &cobra.Command{
		Use:   "servers",
		Short: "List the configured servers: mcpsh's own and other hosts'",
		Long: `List every server mcpsh can use: those of its config file (--config FILE,
else $MCPSH_CONFIG, else $XDG_CONFIG_HOME/mcpsh/config.json), and those you
configured in other hosts: Claude Code (.mcp.json, ~/.claude.json), Claude
Desktop, Cursor (.cursor/mcp.json, ~/.cursor/mcp.json), VS Code
(.vscode/mcp.json, its user mcp.json), Windsurf, Codex (~/.codex/config.toml)
and Gemini CLI (.gemini/settings.json, ~/.gemini/settings.json). Project files
are read from the working directory up to the repository's root. Each server
says where it came from (host, file, key), how it is reached, and why it may
not be usable.

When several files use a name, -s NAME takes mcpsh's own config first, then the
project's files, then the user's; the list marks the one it takes, and
-s HOST:NAME picks another (-s cursor:github). A server its host disabled, or a
project's server nobody approved in its host, is held: listed, never started
unless named. --no-discover (or "discover": false in mcpsh's config) reads
mcpsh's own file only.

mcpsh's config uses the "mcpServers" shape of Claude Desktop, Cursor and Claude
Code, or VS Code's "servers" shape, plus mcpsh's own keys per server: "trust"
("trusted" or "untrusted"), "policy" ({"allow": [...], "confirm": [...],
"deny": [...]} of tool-name globs; deny wins), "timeout", "retries" and
"retryMax", and for HTTP servers the OAuth client: "clientId", "clientSecret",
"clientMetadataUrl", "scopes" and "grant" (see mcpsh login --help). At the top
level, "trust": {"cursor:*": "untrusted"} untrusts other hosts' servers by
name, HOST:NAME or HOST:*. ${VAR} and ${VAR:-default} expand from the
environment. Env and header values are never shown, only their names.

For HTTP servers it also says whether you are logged in (mcpsh login) and
until when; tokens themselves are never shown.

Examples:
  mcpsh servers
  mcpsh servers --json | jq '.[] | select(.winner) | .ref'
  mcpsh tools -s cursor:github`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return serversRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print a JSON array")
	return cmd
}

// serversRun lists every server found, with where it came from and its login.
func serversRun(_ context.Context, opts *serversOptions) error {
	f := opts.f
	if _, err := f.loadConfig(); err != nil {
		return err
	}
	c := f.target.found
	all := listed(c)
	logins := opts.logins(all)
	if opts.json {
		return writeJSON(f.io.Out, serversJSON(c, all, logins))
	}
	if len(all) == 0 {
		fmt.Fprintf(f.io.ErrOut, "no servers configured in %s or in other hosts' files\n", termtext.Line(c.Own.Path))
		return nil
	}
	if f.io.StdoutTTY {
		fmt.Fprintf(f.io.Out, "%s\n\n", f.pal().Muted(termtext.Line(c.Own.Path)))
	}
	for _, s := range all {
		opts.printServer(c, s, logins[s])
	}
	return nil
}

// listed are every server found, by name, and for one name in the order -s
// NAME prefers them.
func listed(c *config.Catalog) []*config.Server {
	var out []*config.Server
	for _, name := range c.Names() {
		out = append(out, c.Named(name)...)
	}
	return out
}

// where is how the server is reached, as it may be shown: ${VAR} references
// unexpanded and secrets redacted.
func where(s *config.Server) string {
	switch s.Transport {
	case config.Stdio:
		return strings.Join(append([]string{s.CommandShown}, s.ArgsShown...), " ")
	case "":
		return "?" // an entry too malformed to say
	}
	return s.URLShown
}

// clash says how s stands among the servers of its name: "" when it is
// alone, else which one -s NAME takes and how to pick s.
func clash(c *config.Catalog, s *config.Server) string {
	same := c.Named(s.Name)
	if len(same) < 2 {
		return ""
	}
	if config.Winner(same) == s {
		return fmt.Sprintf("-s %s uses this one (%d define it)", s.Name, len(same))
	}
	return fmt.Sprintf("-s %s uses %s; -s %s picks this one", s.Name, config.Winner(same).Ref(), s.Ref())
}

func (opts *serversOptions) printServer(c *config.Catalog, s *config.Server, login *loginState) {
	f := opts.f
	p := f.pal()
	// Every field may come from a file in a repository someone cloned.
	line := termtext.Line
	var notes []string
	if s.Proxied {
		notes = append(notes, "through mcpsh proxy") // the host's entry runs mcpsh; mcpsh reaches the server itself
	}
	if s.Origin.Held != "" {
		notes = append(notes, line("held: "+s.Origin.Held))
	}
	if s.Trust != "trusted" {
		notes = append(notes, string(s.Trust))
	}
	if n := login.note(); n != "" {
		notes = append(notes, n)
	}
	if n := len(s.Rules); n > 0 {
		notes = append(notes, units.Plural(n, "rule"))
	}
	if n := clash(c, s); n != "" {
		notes = append(notes, line(n))
	}
	if err := s.Validate(); err != nil {
		notes = append(notes, p.Bad(line("problem: "+err.Error())))
	}
	origin := line(s.Origin.Describe(c.Home))
	if !f.io.StdoutTTY {
		// The columns scripts read stay NAME, TRANSPORT, WHERE, NOTES; a
		// server from another host's file says where in its notes.
		if s.Origin.Host != config.HostMcpsh {
			notes = append([]string{"from " + origin}, notes...)
		}
		fmt.Fprintf(f.io.Out, "%s\t%s\t%s\t%s\n", line(s.Name), s.Transport, line(where(s)), strings.Join(notes, "; "))
		return
	}
	fmt.Fprintf(f.io.Out, "%s  %s  %s  %s", p.Strong(line(s.Name)), p.Muted(string(s.Transport)), line(where(s)), p.Muted(origin))
	if len(notes) > 0 {
		fmt.Fprintf(f.io.Out, "  (%s)", strings.Join(notes, "; "))
	}
	fmt.Fprintln(f.io.Out)
}

type serverJSON struct {
	Name string `json:"name"`
	// Ref is what -s takes to pick this one: HOST:NAME.
	Ref       string     `json:"ref"`
	Origin    originJSON `json:"origin"`
	Transport string     `json:"transport"`
	Command   string     `json:"command,omitempty"`
	Args      []string   `json:"args,omitempty"`
	Cwd       string     `json:"cwd,omitempty"`
	URL       string     `json:"url,omitempty"`
	// Env and Headers are names only: their values hold credentials.
	Env     []string `json:"env,omitempty"`
	Headers []string `json:"headers,omitempty"`
	// Winner: -s NAME picks this one. AlsoIn are the other servers of the name.
	Winner bool     `json:"winner"`
	AlsoIn []string `json:"alsoIn,omitempty"`
	// Proxied: the host's entry runs mcpsh proxy; the rest is the server
	// it proxies, which mcpsh reaches itself.
	Proxied bool `json:"proxied,omitempty"`
	// Held is why mcpsh starts it only when named; "" when it does not wait.
	Held    string              `json:"held,omitempty"`
	Trust   string              `json:"trust"`
	Rules   []map[string]string `json:"rules"`
	OAuth   *oauthJSON          `json:"oauth,omitempty"`
	Login   *loginState         `json:"login,omitempty"`
	Problem string              `json:"problem,omitempty"`
}

// originJSON is where a server came from.
type originJSON struct {
	Host  string `json:"host"`
	Scope string `json:"scope"`
	File  string `json:"file,omitempty"`
	Key   string `json:"key"`
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
func serversJSON(c *config.Catalog, all []*config.Server, logins map[*config.Server]*loginState) []serverJSON {
	out := []serverJSON{}
	for _, s := range all {
		j := serverJSON{Name: s.Name, Ref: s.Ref(), Transport: string(s.Transport), Proxied: s.Proxied, Command: s.CommandShown, Args: s.ArgsShown, URL: s.URLShown,
			Env: sortedKeys(s.Env), Headers: sortedKeys(s.Headers), Held: s.Origin.Held,
			Origin: originJSON{Host: string(s.Origin.Host), Scope: string(s.Origin.Scope), File: s.Origin.File, Key: s.Key},
			Trust:  string(s.Trust), Rules: []map[string]string{}, Login: logins[s]}
		if s.Transport == config.Stdio {
			j.Cwd = s.Cwd
		}
		same := c.Named(s.Name)
		j.Winner = config.Winner(same) == s
		for _, o := range same {
			if o != s {
				j.AlsoIn = append(j.AlsoIn, o.Ref())
			}
		}
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

// sortedKeys are a map's keys, sorted; nil for none.
func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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

// logins reads the stored login of every usable HTTP server.
func (opts *serversOptions) logins(servers []*config.Server) map[*config.Server]*loginState {
	f := opts.f
	out := map[*config.Server]*loginState{}
	var store client.TokenStore
	var storeErr error
	for _, s := range servers {
		if s.Transport != config.HTTP || s.Validate() != nil {
			continue
		}
		if store == nil && storeErr == nil {
			store, storeErr = f.tokenStore()
		}
		if storeErr != nil {
			out[s] = &loginState{Status: "unknown", Problem: storeErr.Error()}
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
		out[s] = st
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
			return "logged in (token expires in " + units.Approx(time.Until(*l.Expires)) + ")"
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
