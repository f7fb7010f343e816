package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/spf13/cobra"
)

// authCommands are login and logout.
func (a *app) authCommands() []*cobra.Command {
	return []*cobra.Command{a.loginCmd(), a.logoutCmd()}
}

// loginFlags name the OAuth client for one login; each overrides the config
// file's key of the same meaning.
type loginFlags struct {
	clientID, clientSecret, metadataURL, grant string
	scopes                                     []string
	noBrowser                                  bool
	wait                                       time.Duration
}

const loginHelp = `Log in to a streamable HTTP server that asks for OAuth, and store the token.

mcpsh finds the server's authorization server from its metadata, registers
itself there (or uses the client you name), and opens the authorization URL in
your browser ($BROWSER if set, else xdg-open, open or rundll32). The URL is
always printed too, with its host, so you can check where you are logging in
and open it yourself. The browser comes back to mcpsh on 127.0.0.1.

The token is stored in the system keyring where there is one, else in a file
only you can read under $XDG_STATE_HOME/mcpsh/tokens ($MCPSH_TOKEN_STORE=file
or keyring chooses). Later commands use it, refresh it when it expires, and
run the browser login again only when the server asks and a person can finish
it (a terminal, or $BROWSER set); otherwise they fail saying to run login.

The client comes from the server's config keys "clientId", "clientSecret"
(use ${VAR} for it), "clientMetadataUrl", "scopes" and "grant", or from the
flags below. Without either, mcpsh registers itself dynamically.
"grant": "client_credentials" gets a token with the client's own ID and
secret, for services: no browser, and renewed by itself when it expires.`

func (a *app) loginCmd() *cobra.Command {
	var f loginFlags
	cmd := &cobra.Command{
		Use:   "login [-s NAME | --url URL]",
		Short: "Log in to an HTTP server with OAuth and store the token",
		Long:  loginHelp,
		Example: `  mcpsh login -s tracker
  mcpsh login --url https://mcp.example.com/mcp --scope "read write"
  mcpsh login -s tracker --client-id mcpsh-cli --no-browser`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.login(cmd, args, &f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.clientID, "client-id", "", "use the pre-registered OAuth client `ID` (config: clientId)")
	fs.StringVar(&f.clientSecret, "client-secret", "", "the pre-registered client's `SECRET` (config: clientSecret, better with ${VAR})")
	fs.StringVar(&f.metadataURL, "client-metadata-url", "", "identify mcpsh by the client ID metadata document at `URL` (https; config: clientMetadataUrl)")
	fs.StringArrayVar(&f.scopes, "scope", nil, "ask for `SCOPE` instead of the scopes the server suggests (repeatable, or space-separated; config: scopes)")
	fs.StringVar(&f.grant, "grant", "", "authorization_code (a person, in a browser; the default) or client_credentials (the client's own ID and secret; config: grant)")
	fs.BoolVar(&f.noBrowser, "no-browser", false, "print the authorization URL without opening a browser")
	fs.DurationVar(&f.wait, "wait", client.DefaultLoginWait, "give up waiting for the browser after `DURATION`")
	return cmd
}

func (a *app) login(cmd *cobra.Command, args []string, f *loginFlags) error {
	t, err := a.oauthTarget(cmd, args, "login")
	if err != nil {
		return err
	}
	o, err := a.loginOAuth(cmd, t, f)
	if err != nil {
		return err
	}
	if o.ClientSecret != "" {
		t.Secrets = append(t.Secrets, o.ClientSecret)
	}
	if _, err := a.tokenStore(); err != nil {
		return err
	}
	au := a.authWith(t, o, true)
	au.Fresh = true
	au.Login.Wait = f.wait
	if f.noBrowser {
		au.Login.Open = nil
	}
	var where string
	au.OnStored = func(w string) { where = w }
	opts := a.clientOptions()
	opts.Recorder = nil // login makes no calls
	opts.Auth = au

	ctx, cancel := context.WithTimeout(cmd.Context(), a.target.connectTimeout+f.wait)
	defer cancel()
	s, err := client.Connect(ctx, t, opts)
	if err == nil {
		// Some servers guard only their tools: listing them is part of logging in.
		_, err = s.ListTools(ctx)
		s.Close()
	}
	name := termtext.Line(t.Label())
	if where == "" {
		if err != nil {
			return err
		}
		fmt.Fprintf(a.io.ErrOut, "mcpsh: %s did not ask for a login: it answered without a token, so nothing was stored\n", name)
		return nil
	}
	msg := fmt.Sprintf("logged in to %s%s; the token is in %s", name, a.expiryNote(au.Store, t), termtext.Line(where))
	if err != nil {
		return fmt.Errorf("%s, but the server still refuses: %w", msg, err)
	}
	fmt.Fprintln(a.io.Out, msg)
	return nil
}

// expiryNote is " (token expires in 59m)", or "" when the server gave no expiry.
func (a *app) expiryNote(store client.TokenStore, t client.Target) string {
	info, err := client.LoginStatus(store, t.URL)
	if err != nil || !info.Stored || info.Expiry.IsZero() {
		return ""
	}
	return " (token expires in " + units.Approx(time.Until(info.Expiry)) + ")"
}

// loginOAuth is the configured OAuth client with login's flags on top.
func (a *app) loginOAuth(cmd *cobra.Command, t client.Target, f *loginFlags) (config.OAuth, error) {
	o := a.oauthOf(t)
	fs := cmd.Flags()
	if fs.Changed("client-id") {
		o.ClientID = f.clientID
	}
	if fs.Changed("client-secret") {
		o.ClientSecret = f.clientSecret
	}
	if fs.Changed("client-metadata-url") {
		o.ClientMetadataURL = f.metadataURL
	}
	if fs.Changed("scope") {
		o.Scopes = config.SplitScopes(f.scopes...)
		if o.Scopes == nil {
			o.Scopes = []string{}
		}
	}
	if fs.Changed("grant") {
		o.Grant = f.grant
	}
	if field, msg := o.Check(); msg != "" {
		flag := map[string]string{"clientSecret": "--client-secret", "grant": "--grant", "clientMetadataUrl": "--client-metadata-url"}[field]
		return o, &usageError{fmt.Sprintf("%s: %s", flag, msg)}
	}
	if f.wait <= 0 {
		return o, &usageError{"--wait: want a positive duration"}
	}
	return o, nil
}

// oauthTarget resolves the target of login or logout, which must be a
// streamable HTTP server: OAuth is defined for that transport.
func (a *app) oauthTarget(cmd *cobra.Command, args []string, verb string) (client.Target, error) {
	rest, command := commandAfterDash(cmd, args)
	if len(rest) > 0 {
		return client.Target{}, &usageError{fmt.Sprintf("%s takes no arguments (got %q): name the server with -s NAME or --url URL", verb, rest[0])}
	}
	t, err := a.resolveTarget(cmd, command)
	if err != nil {
		return t, err
	}
	if t.Kind != client.KindHTTP {
		return t, &usageError{fmt.Sprintf("%s is for streamable HTTP servers (-s NAME of type http, or --url URL); %s is reached over %s",
			verb, termtext.Line(t.Label()), t.Kind)}
	}
	return t, nil
}

func (a *app) logoutCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "logout [-s NAME | --url URL]",
		Short: "Remove the stored OAuth token of an HTTP server",
		Long: `Remove the OAuth token mcpsh stored for a server, from the system keyring
and from the token files. The next command that needs it asks you to log in
again. The authorization server is not told: revoke the grant there too if the
token may have leaked.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := a.oauthTarget(cmd, args, "logout")
			if err != nil {
				return err
			}
			store, err := a.tokenStore()
			if err != nil {
				return err
			}
			removed, err := client.Logout(store, t.URL)
			if err != nil {
				return fmt.Errorf("logging out of %s: %w", termtext.Line(t.Label()), err)
			}
			name := termtext.Line(t.Label())
			if len(removed) == 0 {
				fmt.Fprintf(a.io.Out, "no login was stored for %s\n", name)
				return nil
			}
			fmt.Fprintf(a.io.Out, "logged out of %s: removed the token from %s\n", name, termtext.Line(strings.Join(removed, " and ")))
			return nil
		},
	}
}
