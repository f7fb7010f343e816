package client

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"

	"github.com/mcpsh/mcpsh/internal/redact"
)

// The client mcpsh talks to authorization servers with follows redirects by
// this rule. net/http's own would carry a token request's body (the client
// secret, the code verifier, the refresh token) to wherever a 307 points,
// with an Authorization: Basic header too when the host name is the same,
// whatever the port. go-sdk guards redirects during metadata discovery only,
// and only when the client has no CheckRedirect: oauthex then uses the
// client's instead, so this one also does what go-sdk's discovery check did
// (oauthex/oauth2.go, newDiscoveryClient).

// maxAuthRedirects is go-sdk's limit for discovery (maxDiscoveryRedirects).
const maxAuthRedirects = 10

// authServerRedirect is the authorization server client's CheckRedirect,
// for discovery, registration, the token exchange and refreshes alike. It
// refuses a redirect:
//   - past maxAuthRedirects;
//   - from https to anything else;
//   - of a request that carries a body or an Authorization header to another
//     origin (scheme, host and port, as originOf has them) than the one it
//     was first sent to;
//   - to a loopback address, unless the request was first sent to one (a
//     server on this machine), or to a private or reserved one.
func authServerRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxAuthRedirects {
		return fmt.Errorf("stopped after %d redirects", maxAuthRedirects)
	}
	first, prev := via[0], via[len(via)-1]
	if prev.URL.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("refused a redirect from https to %s (%s): a security downgrade", req.URL.Scheme, shownURL(req.URL))
	}
	if carriesCredentials(first) && originOf(req.URL) != originOf(first.URL) {
		return fmt.Errorf("refused a redirect of a request carrying credentials from %s to %s, another origin",
			originOf(first.URL), shownURL(req.URL))
	}
	return checkRedirectHost(req.Context(), isLoopbackHost(first.URL.Hostname()), req.URL.Hostname())
}

// carriesCredentials reports whether r may hold a credential: a body (a token
// request's form, a registration) or an Authorization header.
func carriesCredentials(r *http.Request) bool {
	return r.Header.Get("Authorization") != "" || r.GetBody != nil || r.ContentLength != 0 ||
		r.Body != nil && r.Body != http.NoBody
}

// checkRedirectHost refuses a redirect to a host that is, or resolves to, a
// loopback address (unless loopbackStart) or a private or reserved one.
func checkRedirectHost(ctx context.Context, loopbackStart bool, host string) error {
	check := func(ip netip.Addr) error {
		ip = ip.Unmap()
		switch {
		case ip.IsLoopback():
			if loopbackStart {
				return nil
			}
			return fmt.Errorf("refused a redirect into the loopback address %q", host)
		case privateOrReserved(ip):
			return fmt.Errorf("refused a redirect into the non-public address %q", host)
		}
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return check(ip)
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return fmt.Errorf("cannot resolve the redirect's host %q: %w", host, err)
	}
	for _, ip := range ips {
		if err := check(ip); err != nil {
			return err
		}
	}
	return nil
}

// isLoopbackHost reports a host name that is a loopback address or localhost.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// cgnat is the carrier-grade NAT range (RFC 6598), which netip's IsPrivate
// leaves out.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// privateOrReserved is go-sdk's IsPrivateOrReserved (internal/util): private,
// link-local (the cloud metadata address among them), carrier-grade NAT,
// multicast and unspecified addresses.
func privateOrReserved(ip netip.Addr) bool {
	ip = ip.Unmap()
	return !ip.IsValid() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip)
}

// shownURL is u with its secret parts taken out, for an error.
func shownURL(u *url.URL) string { return redact.URL(u.String()) }
