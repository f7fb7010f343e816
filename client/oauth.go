package client

import "github.com/modelcontextprotocol/go-sdk/auth"

// Auth configures OAuth for an HTTP server. Placeholder: the OAuth work fills
// it in (issue 9).
type Auth struct{}

// oauthHandler is the SDK handler the streamable HTTP transport uses, or nil
// when the session has no OAuth configured.
func (s *Session) oauthHandler() auth.OAuthHandler { return nil }
