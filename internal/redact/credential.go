package redact

import (
	"encoding/base64"
	"strings"
)

// Credentials are the secrets a header value holds besides the whole value:
// a value written "SCHEME CREDENTIAL" (Authorization: Bearer TOKEN, token
// TOKEN, Basic BLOB) also holds its credential alone, which a server can
// echo without the scheme, and a Basic blob holds the user:password it
// encodes and that password. A value of another form holds nothing more.
func Credentials(value string) []string {
	scheme, cred, ok := strings.Cut(strings.TrimSpace(value), " ")
	cred = strings.TrimSpace(cred)
	if !ok || !isScheme(scheme) || cred == "" || strings.ContainsAny(cred, " \t") {
		return nil
	}
	out := []string{cred}
	if strings.EqualFold(scheme, "Basic") {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
			b, err := enc.DecodeString(cred)
			if err != nil {
				continue
			}
			pair := string(b)
			if _, pass, ok := strings.Cut(pair, ":"); ok {
				out = append(out, pair, pass)
			}
			break
		}
	}
	return out
}

// isScheme is an auth scheme's token (RFC 9110's token, less what a scheme
// never uses), so "Bearer" and "token" are schemes and "text/plain," is not.
func isScheme(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && (c < '0' || c > '9') && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}
