package client

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/zalando/go-keyring"
)

// keyringService is the service name mcpsh's tokens go under in the system
// keyring (Secret Service on Linux, Keychain on macOS, Credential Manager on
// Windows); the account is the server's canonical URL.
const keyringService = "mcpsh"

// keyringWhere is how the keyring is named to a person.
const keyringWhere = "the system keyring"

// keyringTimeout bounds one keyring operation. A Secret Service that is
// installed but never answers (no session bus, a locked collection with no
// one to unlock it) would otherwise hang every command that talks to an HTTP
// server.
const keyringTimeout = 3 * time.Second

type keyringStore struct{}

// NewKeyringTokenStore keeps tokens in the system keyring only.
func NewKeyringTokenStore() TokenStore { return keyringStore{} }

// withTimeout runs op, giving up after keyringTimeout. The operation is left
// to finish on its own: the keyring libraries take no context.
func withTimeout[T any](op func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := op()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(keyringTimeout):
		var zero T
		return zero, fmt.Errorf("%w: it did not answer within %s", errNoKeyring, keyringTimeout)
	}
}

func (keyringStore) load(key string) (*storedToken, string, error) {
	s, err := withTimeout(func() (string, error) { return keyring.Get(keyringService, keyringAccount(key)) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", keyringErr(err)
	}
	var t storedToken
	if err := json.Unmarshal([]byte(s), &t); err != nil || t.URL != key {
		return nil, "", fmt.Errorf("the token in %s is damaged; logging out removes it", keyringWhere)
	}
	return &t, keyringWhere, nil
}

func (keyringStore) save(key string, t *storedToken) (string, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	_, err = withTimeout(func() (struct{}, error) {
		return struct{}{}, keyring.Set(keyringService, keyringAccount(key), string(data))
	})
	if err != nil {
		return "", keyringErr(err)
	}
	return keyringWhere, nil
}

func (keyringStore) remove(key string) ([]string, error) {
	_, err := withTimeout(func() (struct{}, error) { return struct{}{}, keyring.Delete(keyringService, keyringAccount(key)) })
	switch {
	case errors.Is(err, keyring.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, keyringErr(err)
	}
	return []string{keyringWhere}, nil
}

// keyringAccount is the account a server's token is stored under: its
// canonical URL, which a person browsing the keyring recognises. Keyring
// attributes are not secret, though, so a URL that carries a credential (a
// token in the query) is shown redacted, with a hash of the whole to keep
// servers apart.
func keyringAccount(key string) string {
	shown := redact.URL(key)
	if shown == key {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return shown + " #" + hex.EncodeToString(sum[:6])
}

// keyringErr marks a keyring failure as errNoKeyring, keeping the reason.
func keyringErr(err error) error {
	if errors.Is(err, errNoKeyring) {
		return err
	}
	return fmt.Errorf("%w (%v)", errNoKeyring, err)
}

// autoStore uses the system keyring where there is one and falls back to
// files where there is not (a server, a container, CI). A token is read from
// either, so one saved to a file while the keyring was away is still found.
type autoStore struct {
	keyring TokenStore
	file    TokenStore
}

// NewTokenStore keeps tokens in the system keyring where one answers, and
// otherwise in 0600 files under dir.
func NewTokenStore(dir string) TokenStore {
	return &autoStore{keyring: keyringStore{}, file: NewFileTokenStore(dir)}
}

func (s *autoStore) load(key string) (*storedToken, string, error) {
	t, where, err := s.keyring.load(key)
	if t != nil || (err != nil && !errors.Is(err, errNoKeyring)) {
		return t, where, err
	}
	return s.file.load(key)
}

func (s *autoStore) save(key string, t *storedToken) (string, error) {
	where, err := s.keyring.save(key, t)
	if err == nil {
		// A copy left in a file from a time without a keyring would outlive a
		// logout that finds the keyring, and is a credential on disk for nothing.
		s.file.remove(key)
		return where, nil
	}
	if !errors.Is(err, errNoKeyring) {
		return "", err
	}
	return s.file.save(key, t)
}

func (s *autoStore) remove(key string) ([]string, error) {
	where, kerr := s.keyring.remove(key)
	fwhere, ferr := s.file.remove(key)
	where = append(where, fwhere...)
	if ferr != nil {
		return where, ferr
	}
	if kerr != nil && !errors.Is(kerr, errNoKeyring) {
		return where, kerr
	}
	return where, nil
}
