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
func (f *factory) clientOptionsFor(t client.Target) *client.Options {
	o := f.clientOptions()
	o.Auth = f.authFor(t, f.canAuthorize())
	return o
}

// canAuthorize reports whether a browser login can run in a batch command: a
// person is there to finish it (stdin or stderr is a terminal), or $BROWSER
// was set on purpose, so something will open the URL. Otherwise a server that
// asks for a login fails the command with the hint to run mcpsh login.
func (f *factory) canAuthorize() bool {
	b, _ := f.getenv("BROWSER")
	return f.io.StdinTTY || f.io.StderrTTY || strings.TrimSpace(b) != ""
}

// authFor is the OAuth configuration for a streamable HTTP target, nil for
// any other: the token store, the client from the config file, and a browser
// login when interactive (a person can finish it; see canAuthorize).
func (f *factory) authFor(t client.Target, interactive bool) *client.Auth {
	return f.authWith(t, f.oauthOf(t), interactive)
}

// authWith is authFor with the OAuth client given: login's flags on top of
// the config file's keys.
func (f *factory) authWith(t client.Target, o config.OAuth, interactive bool) *client.Auth {
	if t.Kind != client.KindHTTP {
		return nil
	}
	store, err := f.tokenStore()
	if err != nil {
		f.warn("OAuth is off: " + err.Error())
		return nil
	}
	au := &client.Auth{
		Store: store, ClientID: o.ClientID, ClientSecret: o.ClientSecret, ClientMetadataURL: o.ClientMetadataURL,
		Scopes: o.Scopes, Grant: client.Grant(o.Grant), Hint: f.loginHint(t), Notify: f.authNotice,
	}
	if interactive {
		au.Login = &client.BrowserLogin{Open: client.OpenBrowser(f.getenv)}
	}
	return au
}

// oauthOf is the configured server's OAuth client, when t came from the
// config file; the zero value for a --url target.
func (f *factory) oauthOf(t client.Target) config.OAuth {
	if s := f.configuredServer(t); s != nil {
		return s.OAuth
	}
	return config.OAuth{}
}

// loginHint is the command that logs in to t, as the person named it.
func (f *factory) loginHint(t client.Target) string {
	var b strings.Builder
	b.WriteString("mcpsh login")
	if f.configPath != "" {
		b.WriteString(" --config " + shellWord(f.configPath))
	}
	switch {
	case f.configured(t):
		b.WriteString(" -s " + shellWord(t.Name))
	case t.URLShown != "":
		b.WriteString(" --url " + shellWord(t.URLShown))
	default:
		b.WriteString(" --url " + shellWord(redact.URL(t.URL)))
	}
	return b.String()
}

// configured reports whether t is a server from the config file.
func (f *factory) configured(t client.Target) bool { return f.configuredServer(t) != nil }

// configuredServer is the config file's entry t was made from, or nil.
func (f *factory) configuredServer(t client.Target) *config.Server {
	if t.Name == "" || f.cfg == nil {
		return nil
	}
	for _, s := range f.cfg.Servers {
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
func (f *factory) authNotice(msg string) {
	line := "mcpsh: " + termtext.Sanitize(msg)
	if p := f.progress.Load(); p != nil {
		p.println(line)
		return
	}
	fmt.Fprintln(f.io.ErrOut, line)
}

// tokenStore is where OAuth tokens live: $MCPSH_TOKEN_STORE chooses
// "keyring" (the system keyring only), "file" (0600 files under mcpsh's state
// folder, even where a keyring exists: a headless machine, a shared account)
// or "auto", the default: the keyring where one answers, else files.
func (f *factory) tokenStore() (client.TokenStore, error) {
	mode, _ := f.getenv("MCPSH_TOKEN_STORE")
	if mode == "keyring" {
		return client.NewKeyringTokenStore(), nil
	}
	dir, err := tokensDir(f.getenv)
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
