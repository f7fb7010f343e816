package client

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// storedToken is what mcpsh keeps of an OAuth login: the token, and what it
// takes to refresh it (the client and the token endpoint it was issued by), so
// a later run can go on without a new login. It never leaves this package: the
// CLI sees a TokenInfo.
type storedToken struct {
	Version      int       `json:"version"`
	URL          string    `json:"url"` // the server's canonical URL, the key
	Grant        string    `json:"grant"`
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Scopes       []string  `json:"scopes,omitempty"`
	ClientID     string    `json:"client_id,omitempty"`
	ClientSecret string    `json:"client_secret,omitempty"`
	TokenURL     string    `json:"token_url,omitempty"`
	AuthStyle    int       `json:"auth_style,omitempty"`
	Saved        time.Time `json:"saved"`
}

const storedTokenVersion = 1

func (t *storedToken) oauth2() *oauth2.Token {
	return &oauth2.Token{AccessToken: t.AccessToken, TokenType: t.TokenType, RefreshToken: t.RefreshToken, Expiry: t.Expiry}
}

// config is the OAuth client that refreshes the token.
func (t *storedToken) config() *oauth2.Config {
	return &oauth2.Config{ClientID: t.ClientID, ClientSecret: t.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: t.TokenURL, AuthStyle: oauth2.AuthStyle(t.AuthStyle)}, Scopes: t.Scopes}
}

// refreshable reports whether the token can be renewed without a person.
func (t *storedToken) refreshable() bool { return t.RefreshToken != "" && t.TokenURL != "" }

// usable reports whether the token can authorize a request now, as it is or
// once refreshed. An expired token with no way to refresh it is not.
func (t *storedToken) usable() bool {
	return t.AccessToken != "" && (t.oauth2().Valid() || t.refreshable())
}

// secrets are the values in t that must never be shown.
func (t *storedToken) secrets() []string {
	return []string{t.AccessToken, t.RefreshToken, t.ClientSecret}
}

// TokenStore keeps OAuth tokens, keyed by a server's canonical URL. Its
// methods are the client's alone: tokens never leave this package.
type TokenStore interface {
	// load returns the token stored for key and where it is, or nil when there is none.
	load(key string) (*storedToken, string, error)
	// save stores t for key and says where.
	save(key string, t *storedToken) (string, error)
	// remove deletes the token for key and says where it was, if anywhere.
	remove(key string) ([]string, error)
}

// CanonicalURL is the key a server's tokens are stored under: the URL the
// token was issued for, as the MCP authorization spec canonicalises it (scheme
// and host in lower case, no default port, no fragment, no trailing slash),
// without the userinfo, which is a credential of its own and not part of the
// server's identity.
func CanonicalURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http or https URL", raw)
	}
	c := url.URL{Scheme: strings.ToLower(u.Scheme), Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (c.Scheme == "http" && port == "80") || (c.Scheme == "https" && port == "443") {
		port = ""
	}
	c.Host = host
	if strings.Contains(host, ":") {
		c.Host = "[" + host + "]"
	}
	if port != "" {
		c.Host = net.JoinHostPort(host, port)
	}
	c.Path = strings.TrimRight(c.Path, "/")
	if c.RawPath != "" {
		c.RawPath = strings.TrimRight(c.RawPath, "/")
	}
	return c.String(), nil
}

// TokenInfo is what may be shown of a stored login: never the token.
type TokenInfo struct {
	// Stored is false when there is no token for the server.
	Stored bool
	// Expiry is when the access token expires; zero when the server did not say.
	Expiry time.Time
	// Refreshable means mcpsh can renew the token by itself when it expires.
	Refreshable bool
	// Usable means the token can authorize a request now, as it is or once refreshed.
	Usable bool
	Scopes []string
	Grant  string
	// Where is where the token is kept: "the system keyring" or a file.
	Where string
}

// LoginStatus says whether a token is stored for serverURL, and for how long
// it lasts.
func LoginStatus(store TokenStore, serverURL string) (TokenInfo, error) {
	key, err := CanonicalURL(serverURL)
	if err != nil {
		return TokenInfo{}, err
	}
	t, where, err := store.load(key)
	if err != nil || t == nil {
		return TokenInfo{}, err
	}
	return TokenInfo{Stored: true, Expiry: t.Expiry, Refreshable: t.refreshable(), Usable: t.usable(),
		Scopes: slices.Clone(t.Scopes), Grant: t.Grant, Where: where}, nil
}

// Logout removes the token stored for serverURL and says where it was; none
// when nothing was stored.
func Logout(store TokenStore, serverURL string) ([]string, error) {
	key, err := CanonicalURL(serverURL)
	if err != nil {
		return nil, err
	}
	return store.remove(key)
}

// errNoKeyring is the keyring store's answer where no keyring can be reached.
var errNoKeyring = errors.New("no system keyring is available")
