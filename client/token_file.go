package client

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// fileStore keeps each server's token in a file of its own under dir: the
// folder is 0700 and the files 0600, since they hold credentials. A file is
// named by a hash of the server's URL, which may itself hold secrets (a query
// parameter), and is replaced whole on each save, so a reader never sees half
// a token.
type fileStore struct{ dir string }

// NewFileTokenStore keeps tokens in files under dir, which it creates (0700)
// when the first token is saved.
func NewFileTokenStore(dir string) TokenStore { return &fileStore{dir: dir} }

func (s *fileStore) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:16])+".json")
}

func (s *fileStore) load(key string) (*storedToken, string, error) {
	p := s.path(key)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading the token file: %w", err)
	}
	var t storedToken
	if err := json.Unmarshal(data, &t); err != nil {
		// Not json.Unmarshal's message: it may quote the file, token and all.
		return nil, "", fmt.Errorf("the token file %s is damaged (not JSON); logging out removes it", p)
	}
	if t.URL != key {
		// A hash collision, or a file copied from elsewhere: not this server's token.
		return nil, "", nil
	}
	return &t, p, nil
}

func (s *fileStore) save(key string, t *storedToken) (string, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", fmt.Errorf("making the token folder: %w", err)
	}
	// MkdirAll leaves an existing folder as it was; tokens need it private.
	if err := os.Chmod(s.dir, 0o700); err != nil {
		return "", fmt.Errorf("making the token folder private: %w", err)
	}
	p := s.path(key)
	f, err := os.CreateTemp(s.dir, ".token-*") // 0600
	if err != nil {
		return "", fmt.Errorf("writing the token file: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("writing the token file: %w", err)
	}
	return p, nil
}

func (s *fileStore) remove(key string) ([]string, error) {
	p := s.path(key)
	t, _, err := s.load(key)
	if err == nil && t == nil {
		return nil, nil
	}
	// A damaged file goes too: logout is how the load error says to remove it.
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("removing the token file: %w", err)
	}
	return []string{p}, nil
}
