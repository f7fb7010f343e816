package client

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// keepMetadataOnOrigin takes out of a 401 or 403's challenges a
// resource_metadata URL that is not on the MCP server's own origin (scheme,
// host and port), before go-sdk's handlers read them. RFC 9728 puts a
// protected resource's metadata at a well-known location on the resource's
// own origin, and go-sdk looks there when the challenge names none; a URL
// elsewhere would have mcpsh fetch whatever the server points it at, another
// port of the same host included. The person hears of the URL left out.
func (h *authorizer) keepMetadataOnOrigin(resp *http.Response) {
	values := resp.Header.Values("WWW-Authenticate")
	challenges, err := oauthex.ParseWWWAuthenticate(values)
	if err != nil {
		return // go-sdk refuses a challenge it cannot read before it fetches anything
	}
	var dropped []string
	for _, c := range challenges {
		u, ok := c.Params["resource_metadata"]
		if !ok || h.onOrigin(u) {
			continue
		}
		dropped = append(dropped, u)
		delete(c.Params, "resource_metadata")
	}
	if len(dropped) == 0 {
		return
	}
	resp.Header.Del("WWW-Authenticate")
	for _, c := range challenges {
		resp.Header.Add("WWW-Authenticate", challengeString(c))
	}
	if again, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate")); err != nil ||
		slices.ContainsFunc(again, func(c oauthex.Challenge) bool { u, ok := c.Params["resource_metadata"]; return ok && !h.onOrigin(u) }) {
		// go-sdk's parser splits challenges without reading escapes, so a
		// value ending in '\' reads differently once written back: keep
		// only the scheme rather than anything that reads otherwise.
		resp.Header.Set("WWW-Authenticate", "Bearer")
	}
	for _, u := range dropped {
		h.auth.notify(termtext.Line(h.target.Label()) + " names its resource metadata at " + termtext.Truncate(termtext.Line(h.redact(redact.URL(u))), 200) +
			", not on its own origin: mcpsh looks for it only at the server's own well-known location")
	}
}

// onOrigin reports whether raw is an absolute URL on the MCP server's origin.
func (h *authorizer) onOrigin(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return false
	}
	t, err := url.Parse(h.target.URL)
	return err == nil && originOf(u) == originOf(t)
}

// challengeString writes a challenge back as a header value go-sdk parses to
// the same scheme and parameters (its parser lower-cases both; values are
// quoted, with '"' and '\' escaped).
func challengeString(c oauthex.Challenge) string {
	keys := make([]string, 0, len(c.Params))
	for k := range c.Params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	params := make([]string, len(keys))
	for i, k := range keys {
		params[i] = k + "=" + quoteParam(c.Params[k])
	}
	if len(params) == 0 {
		return c.Scheme
	}
	return c.Scheme + " " + strings.Join(params, ", ")
}

func quoteParam(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
