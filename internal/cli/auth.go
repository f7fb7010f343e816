package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/paths"
	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// clientOptionsFor is clientOptions with OAuth for t: the options every
// command that talks to one server connects with.
func (a *app) clientOptionsFor(t client.Target) *client.Options {
	o := a.clientOptions()
	o.Auth = a.authFor(t, a.canAuthorize())
	return o
}

// canAuthorize reports whether a browser login can run in a batch command: a
// person is there to finish it (stdin or stderr is a terminal), or $BROWSER
// was set on purpose, so something will open the URL. Otherwise a server that
// asks for a login fails the command with the hint to run mcpsh login.
func (a *app) canAuthorize() bool {
	b, _ := a.getenv("BROWSER")
	return a.io.StdinTTY || a.io.StderrTTY || strings.TrimSpace(b) != ""
}

// authFor is the OAuth configuration for a streamable HTTP target, nil for
// any other: the token store, the client from the config file, and a browser
// login when interactive (a person can finish it; see canAuthorize).
func (a *app) authFor(t client.Target, interactive bool) *client.Auth {
	return a.authWith(t, a.oauthOf(t), interactive)
}

// authWith is authFor with the OAuth client given: login's flags on top of
// the config file's keys.
func (a *app) authWith(t client.Target, o config.OAuth, interactive bool) *client.Auth {
	if t.Kind != client.KindHTTP {
		return nil
	}
	store, err := a.tokenStore()
	if err != nil {
		a.warn("OAuth is off: " + err.Error())
		return nil
	}
	au := &client.Auth{
		Store: store, ClientID: o.ClientID, ClientSecret: o.ClientSecret, ClientMetadataURL: o.ClientMetadataURL,
		Scopes: o.Scopes, Grant: client.Grant(o.Grant), Hint: a.loginHint(t), Notify: a.authNotice,
	}
	if interactive {
		au.Login = &client.BrowserLogin{Open: client.OpenBrowser(a.getenv)}
	}
	return au
}

// oauthOf is the configured server's OAuth client, when t came from the
// config file; the zero value for a --url target.
func (a *app) oauthOf(t client.Target) config.OAuth {
	if s := a.configuredServer(t); s != nil {
		return s.OAuth
	}
	return config.OAuth{}
}

// loginHint is the command that logs in to t, as the person named it.
func (a *app) loginHint(t client.Target) string {
	var b strings.Builder
	b.WriteString("mcpsh login")
	if a.configPath != "" {
		b.WriteString(" --config " + shellWord(a.configPath))
	}
	switch {
	case a.configured(t):
		b.WriteString(" -s " + shellWord(t.Name))
	case t.URLShown != "":
		b.WriteString(" --url " + shellWord(t.URLShown))
	default:
		b.WriteString(" --url " + shellWord(redact.URL(t.URL)))
	}
	return b.String()
}

// configured reports whether t is a server from the config file.
func (a *app) configured(t client.Target) bool { return a.configuredServer(t) != nil }

// configuredServer is the config file's entry t was made from, or nil.
func (a *app) configuredServer(t client.Target) *config.Server {
	if t.Name == "" || a.cfg == nil {
		return nil
	}
	for _, s := range a.cfg.Servers {
		if s.Name == t.Name && s.URL == t.URL && s.Transport == config.HTTP {
			return s
		}
	}
	return nil
}

// shellWord quotes s for a shell when it needs it, so a hint can be pasted.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// authNotice prints what the OAuth flow needs a person to see: the URL to
// open, a token that could not be stored. It is already safe for a terminal.
func (a *app) authNotice(msg string) {
	line := "mcpsh: " + termtext.Sanitize(msg)
	if p := a.progress.Load(); p != nil {
		p.println(line)
		return
	}
	fmt.Fprintln(a.io.ErrOut, line)
}

// tokenStore is where OAuth tokens live: $MCPSH_TOKEN_STORE chooses
// "keyring" (the system keyring only), "file" (0600 files under mcpsh's state
// folder, even where a keyring exists: a headless machine, a shared account)
// or "auto", the default: the keyring where one answers, else files.
func (a *app) tokenStore() (client.TokenStore, error) {
	mode, _ := a.getenv("MCPSH_TOKEN_STORE")
	if mode == "keyring" {
		return client.NewKeyringTokenStore(), nil
	}
	dir, err := tokensDir(a.getenv)
	switch {
	case mode != "" && mode != "auto" && mode != "file":
		return nil, &usageError{fmt.Sprintf("$MCPSH_TOKEN_STORE=%q: want keyring, file or auto", mode)}
	case err != nil && mode == "file":
		return nil, err
	case err != nil:
		return client.NewKeyringTokenStore(), nil
	case mode == "file":
		return client.NewFileTokenStore(dir), nil
	}
	return client.NewTokenStore(dir), nil
}

// tokensDir is tokens in mcpsh's state folder, beside the session logs:
// $XDG_STATE_HOME/mcpsh/tokens (~/.local/state/mcpsh/tokens;
// %LOCALAPPDATA%\mcpsh\tokens on Windows).
func tokensDir(getenv func(string) (string, bool)) (string, error) {
	dir, err := paths.StateDir(getenv)
	if err != nil {
		return "", fmt.Errorf("cannot place the token files: %w", err)
	}
	return filepath.Join(dir, "tokens"), nil
}
