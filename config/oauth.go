package config

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Grants mcpsh can use to get a token from an authorization server.
const (
	// GrantAuthorizationCode is the default: a person authorizes in a browser.
	GrantAuthorizationCode = "authorization_code"
	// GrantClientCredentials is for a service acting as itself: the client ID
	// and secret get the token, with no person and no browser.
	GrantClientCredentials = "client_credentials"
)

// OAuth is the OAuth client mcpsh presents to an HTTP server's authorization
// server. Every field is optional: without a client ID or a client ID metadata
// document, mcpsh registers itself dynamically where the server allows it.
type OAuth struct {
	// ClientID and ClientSecret are a client registered in advance with the
	// authorization server. ClientSecret is a secret: it joins the server's
	// Secrets and is never shown.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is the https URL of a client ID metadata document,
	// used as the client ID where the authorization server supports them.
	ClientMetadataURL string
	// Scopes replace the scopes the server's metadata suggests; nil asks for those.
	Scopes []string
	// Grant is GrantAuthorizationCode (also when empty) or GrantClientCredentials.
	Grant string
}

// IsZero reports whether nothing about OAuth is configured.
func (o OAuth) IsZero() bool {
	return o.ClientID == "" && o.ClientSecret == "" && o.ClientMetadataURL == "" && o.Scopes == nil && o.Grant == ""
}

// Check reports what makes o unusable, as a message without a key, so a file
// and command-line flags can both say where the fault is.
func (o OAuth) Check() (field, msg string) {
	switch {
	case o.ClientSecret != "" && o.ClientID == "":
		return "clientSecret", "a client secret needs a client ID (clientId) to go with it"
	case o.Grant != "" && o.Grant != GrantAuthorizationCode && o.Grant != GrantClientCredentials:
		return "grant", fmt.Sprintf("unknown grant %q (want %s or %s)", o.Grant, GrantAuthorizationCode, GrantClientCredentials)
	case o.Grant == GrantClientCredentials && (o.ClientID == "" || o.ClientSecret == ""):
		return "grant", "the client_credentials grant needs a client ID and a client secret (clientId, clientSecret)"
	case o.ClientMetadataURL != "":
		if msg := CheckClientMetadataURL(o.ClientMetadataURL); msg != "" {
			return "clientMetadataUrl", msg
		}
	}
	return "", ""
}

// CheckClientMetadataURL returns why s cannot be a client ID metadata
// document URL, or "" when it can: the spec wants https and a path, since the
// URL is the client's identity and the authorization server fetches it.
func CheckClientMetadataURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" {
		return fmt.Sprintf("%q is not an https URL with a path, which a client ID metadata document needs", s)
	}
	return ""
}

// SplitScopes reads scopes written as one space-separated string, as OAuth
// sends them, or given one by one: "read write" and "read" "write" are alike.
func SplitScopes(values ...string) []string {
	var out []string
	for _, v := range values {
		out = append(out, strings.Fields(v)...)
	}
	return out
}

// oauthKeys are the OAuth keys, which only a streamable HTTP server can use.
var oauthKeys = []string{"clientId", "clientSecret", "clientMetadataUrl", "scopes", "grant"}

// oauth reads the OAuth keys of an HTTP server.
func (e *entry) oauth() error {
	for _, k := range oauthKeys {
		if _, ok := e.fields[k]; ok && e.srv.Transport != HTTP {
			return e.p.errf(e.sub(k), "OAuth is for streamable HTTP servers (type http), not %s ones", e.srv.Transport)
		}
	}
	o := &e.srv.OAuth
	for _, f := range []struct {
		name string
		to   *string
	}{{"clientId", &o.ClientID}, {"clientSecret", &o.ClientSecret}, {"clientMetadataUrl", &o.ClientMetadataURL}, {"grant", &o.Grant}} {
		raw, err := e.str(f.name)
		if err != nil {
			return err
		}
		v, ok := e.expand(e.sub(f.name), raw)
		if !ok {
			continue
		}
		*f.to = v
	}
	if o.ClientSecret != "" {
		// Written out or from a variable, the secret is never shown.
		e.secret(o.ClientSecret)
	}
	var err error
	if o.Scopes, err = e.scopes(); err != nil {
		return err
	}
	if e.srv.Err != nil {
		return nil // a variable that is not set: the server is already unusable
	}
	if field, msg := o.Check(); msg != "" {
		return e.p.errf(e.sub(field), "%s", msg)
	}
	return nil
}

// scopes reads "scopes": an array of strings, or one space-separated string.
func (e *entry) scopes() ([]string, error) {
	raw, ok := e.fields["scopes"]
	if !ok {
		return nil, nil
	}
	key := e.sub("scopes")
	var written []string
	switch kind(raw) {
	case "a string":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, e.p.errf(key, "%v", err)
		}
		written = []string{s}
	case "an array":
		var err error
		if written, err = e.p.strs(key, raw); err != nil {
			return nil, err
		}
	default:
		return nil, e.p.errf(key, "want an array of strings or a space-separated string, got %s", kind(raw))
	}
	var out []string
	for i, w := range written {
		v, ok := e.expand(fmt.Sprintf("%s[%d]", key, i), w)
		if ok {
			out = append(out, SplitScopes(v)...)
		}
	}
	if out == nil {
		out = []string{} // set, but empty: ask for no scopes rather than the suggested ones
	}
	return out, nil
}
