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

// loginFlags name the OAuth client for one login; each overrides the config
// file's key of the same meaning.
type loginFlags struct {
	clientID, clientSecret, metadataURL, grant string
	scopes                                     []string
	noBrowser                                  bool
	wait                                       time.Duration
}

// loginOptions are mcpsh login's flags and arguments.
type loginOptions struct {
	f *factory
	loginFlags
	// given are the OAuth flags given, which override the config's keys.
	given   map[string]bool
	command []string // after --: never a streamable HTTP server, so an error
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

// newLoginCmd is mcpsh login: its flags parsed into the options, then runF, or the run function when runF is nil.
func newLoginCmd(f *factory, runF func(context.Context, *loginOptions) error) *cobra.Command {
	opts := &loginOptions{f: f, given: map[string]bool{}}
	cmd := &cobra.Command{
		Use:   "login [-s NAME | --url URL]",
		Short: "Log in to an HTTP server with OAuth and store the token",
		Long:  loginHelp,
		Example: `  mcpsh login -s tracker
  mcpsh login --url https://mcp.example.com/mcp --scope "read write"
  mcpsh login -s tracker --client-id mcpsh-cli --no-browser`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			command, err := oauthArgs(cmd, args, "login")
			if err != nil {
				return err
			}
			opts.command = command
			for _, name := range []string{"client-id", "client-secret", "client-metadata-url", "scope", "grant"} {
				opts.given[name] = cmd.Flags().Changed(name)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return loginRun(cmd.Context(), opts)
		},
	}
	fs := cmd.Flags()
	lf := &opts.loginFlags
	fs.StringVar(&lf.clientID, "client-id", "", "use the pre-registered OAuth client `ID` (config: clientId)")
	fs.StringVar(&lf.clientSecret, "client-secret", "", "the pre-registered client's `SECRET` (config: clientSecret, better with ${VAR})")
	fs.StringVar(&lf.metadataURL, "client-metadata-url", "", "identify mcpsh by the client ID metadata document at `URL` (https; config: clientMetadataUrl)")
	fs.StringArrayVar(&lf.scopes, "scope", nil, "ask for `SCOPE` instead of the scopes the server suggests (repeatable, or space-separated; config: scopes)")
	fs.StringVar(&lf.grant, "grant", "", "authorization_code (a person, in a browser; the default) or client_credentials (the client's own ID and secret; config: grant)")
	fs.BoolVar(&lf.noBrowser, "no-browser", false, "print the authorization URL without opening a browser")
	fs.DurationVar(&lf.wait, "wait", client.DefaultLoginWait, "give up waiting for the browser after `DURATION`")
	return cmd
}

// loginRun logs in to the server and stores the token.
func loginRun(ctx context.Context, opts *loginOptions) error {
	f, lf := opts.f, &opts.loginFlags
	t, err := oauthTarget(f, opts.command, "login")
	if err != nil {
		return err
	}
	o, err := opts.oauth(t)
	if err != nil {
		return err
	}
	if o.ClientSecret != "" {
		t.Secrets = append(t.Secrets, o.ClientSecret)
	}
	if _, err := f.tokenStore(); err != nil {
		return err
	}
	au := f.authWith(t, o, true)
	au.Fresh = true
	au.Login.Wait = lf.wait
	if lf.noBrowser {
		au.Login.Open = nil
	}
	var where string
	au.OnStored = func(w string) { where = w }
	co := f.clientOptions()
	co.Recorder = nil // login makes no calls
	co.Auth = au

	ctx, cancel := context.WithTimeout(ctx, f.target.connectTimeout+lf.wait)
	defer cancel()
	s, err := client.Connect(ctx, t, co)
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
		fmt.Fprintf(f.io.ErrOut, "mcpsh: %s did not ask for a login: it answered without a token, so nothing was stored\n", name)
		return nil
	}
	msg := fmt.Sprintf("logged in to %s%s; the token is in %s", name, expiryNote(au.Store, t), termtext.Line(where))
	if err != nil {
		return fmt.Errorf("%s, but the server still refuses: %w", msg, err)
	}
	fmt.Fprintln(f.io.Out, msg)
	return nil
}

// expiryNote is " (token expires in 59m)", or "" when the server gave no expiry.
func expiryNote(store client.TokenStore, t client.Target) string {
	info, err := client.LoginStatus(store, t.URL)
	if err != nil || !info.Stored || info.Expiry.IsZero() {
		return ""
	}
	return " (token expires in " + units.Approx(time.Until(info.Expiry)) + ")"
}

// oauth is the configured OAuth client with login's flags on top.
func (opts *loginOptions) oauth(t client.Target) (config.OAuth, error) {
	f, given := &opts.loginFlags, opts.given
	o := opts.f.oauthOf(t)
	if given["client-id"] {
		o.ClientID = f.clientID
	}
	if given["client-secret"] {
		o.ClientSecret = f.clientSecret
	}
	if given["client-metadata-url"] {
		o.ClientMetadataURL = f.metadataURL
	}
	if given["scope"] {
		o.Scopes = config.SplitScopes(f.scopes...)
		if o.Scopes == nil {
			o.Scopes = []string{}
		}
	}
	if given["grant"] {
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

// oauthArgs checks that login or logout was given no arguments but a
// command after --, and returns that.
func oauthArgs(cmd *cobra.Command, args []string, verb string) ([]string, error) {
	rest, command := commandAfterDash(cmd, args)
	if len(rest) > 0 {
		return nil, &usageError{fmt.Sprintf("%s takes no arguments (got %q): name the server with -s NAME or --url URL", verb, rest[0])}
	}
	return command, nil
}

// oauthTarget resolves the target of login or logout, which must be a
// streamable HTTP server: OAuth is defined for that transport.
func oauthTarget(f *factory, command []string, verb string) (client.Target, error) {
	t, err := f.resolveTarget(command)
	if err != nil {
		return t, err
	}
	if t.Kind != client.KindHTTP {
		return t, &usageError{fmt.Sprintf("%s is for streamable HTTP servers (-s NAME of type http, or --url URL); %s is reached over %s",
			verb, termtext.Line(t.Label()), t.Kind)}
	}
	return t, nil
}

// logoutOptions are mcpsh logout's arguments.
type logoutOptions struct {
	f       *factory
	command []string // after --: never a streamable HTTP server, so an error
}

// newLogoutCmd is mcpsh logout: its flags parsed into the options, then runF, or the run function when runF is nil.
func newLogoutCmd(f *factory, runF func(context.Context, *logoutOptions) error) *cobra.Command {
	opts := &logoutOptions{f: f}
	return &cobra.Command{
		Use:   "logout [-s NAME | --url URL]",
		Short: "Remove the stored OAuth token of an HTTP server",
		Long: `Remove the OAuth token mcpsh stored for a server, from the system keyring
and from the token files. The next command that needs it asks you to log in
again. The authorization server is not told: revoke the grant there too if the
token may have leaked.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			command, err := oauthArgs(cmd, args, "logout")
			if err != nil {
				return err
			}
			opts.command = command
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return logoutRun(cmd.Context(), opts)
		},
	}
}

// logoutRun removes the server's stored token.
func logoutRun(_ context.Context, opts *logoutOptions) error {
	f := opts.f
	t, err := oauthTarget(f, opts.command, "logout")
	if err != nil {
		return err
	}
	store, err := f.tokenStore()
	if err != nil {
		return err
	}
	removed, err := client.Logout(store, t.URL)
	if err != nil {
		return fmt.Errorf("logging out of %s: %w", termtext.Line(t.Label()), err)
	}
	name := termtext.Line(t.Label())
	if len(removed) == 0 {
		fmt.Fprintf(f.io.Out, "no login was stored for %s\n", name)
		return nil
	}
	fmt.Fprintf(f.io.Out, "logged out of %s: removed the token from %s\n", name, termtext.Line(strings.Join(removed, " and ")))
	return nil
}
