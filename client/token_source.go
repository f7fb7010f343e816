package client

import (
	"errors"
	"slices"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// savingSource is the token source the transport uses: it hands out the
// current token, lets base renew it (a refresh, or a new client credentials
// grant), and stores every new token as soon as it is seen, so the next run
// starts from it rather than from a refresh token the server has rotated away.
type savingSource struct {
	h    *authorizer
	base oauth2.TokenSource
	// renewable: base gets a new token by itself when this one expires.
	renewable bool

	mu  sync.Mutex
	rec *storedToken // what is stored; its token is the one last seen
	// spent: the authorization server refused to renew the token
	// (invalid_grant), so only a new authorization helps.
	spent bool
}

// Token is the current token, renewed if it has expired. An error keeps
// oauth2's inside it: the transport goes on without a token on invalid_grant,
// so the server asks for a new login.
func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.base.Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode == "invalid_grant" {
			s.mu.Lock()
			s.spent = true
			s.mu.Unlock()
		}
		return nil, s.h.wrap(err)
	}
	s.mu.Lock()
	changed := tok.AccessToken != s.rec.AccessToken
	s.mu.Unlock()
	if changed {
		s.record(tok)
	}
	return tok, nil
}

// record makes tok the current token and stores it. A token that cannot be
// stored still serves this run; the person hears why the next may ask again.
func (s *savingSource) record(tok *oauth2.Token) {
	s.mu.Lock()
	rec := *s.rec
	rec.Version = storedTokenVersion
	rec.URL = s.h.key
	rec.AccessToken, rec.TokenType, rec.Expiry = tok.AccessToken, tok.TokenType, tok.Expiry
	if tok.RefreshToken != "" {
		rec.RefreshToken = tok.RefreshToken
	}
	rec.Saved = time.Now().UTC()
	s.rec = &rec
	s.mu.Unlock()
	s.h.live.add(rec.secrets()...)
	where, err := s.h.auth.Store.save(s.h.key, &rec)
	if err != nil {
		s.h.auth.notify("the token for " + s.h.target.Label() + " could not be stored, so the next run will ask again: " + s.h.redact(err.Error()))
		return
	}
	if s.h.auth.OnStored != nil {
		s.h.auth.OnStored(where)
	}
}

// usable reports whether the token can authorize a request now, as it is or
// once renewed.
func (s *savingSource) usable() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.spent && (s.renewable || s.rec.oauth2().Valid())
}

func (s *savingSource) accessToken() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rec.AccessToken
}

func (s *savingSource) scopes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.rec.Scopes)
}
