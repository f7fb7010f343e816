package console

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpsh/mcpsh/internal/paths"
)

// Dir is the folder running proxies register in: $XDG_RUNTIME_DIR/mcpsh/
// proxies, else the state folder's proxies.
func Dir(getenv func(string) (string, bool)) (string, error) {
	d, err := paths.RuntimeDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "proxies"), nil
}

// EnsureDir makes dir, and its parent, the user's alone (0700): a folder
// that is not a folder, or is someone else's, is refused; one the user
// owns with looser permissions is tightened.
func EnsureDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("the proxies' folder: %w", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("the proxies' folder: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("the proxies' folder: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("the proxies' folder %s is not a folder", dir)
	}
	if err := ownedByMe(fi); err != nil {
		return fmt.Errorf("the proxies' folder %s: %w", dir, err)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("the proxies' folder: %w", err)
		}
	}
	return nil
}

// newID is a fresh name for a proxy's entry and socket: short, as a
// socket's path is bounded (104 bytes on macOS).
func newID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// entryPath and socketPath are a proxy's files in dir.
func entryPath(dir, id string) string  { return filepath.Join(dir, id+".json") }
func socketPath(dir, id string) string { return filepath.Join(dir, id+".sock") }

// entry is what a proxy's file in the folder holds: its Info and, on the
// token link, the token a console presents. The token stays in this file
// and in the hellos that present it: Info, which goes in the proxy's hello,
// the events and mcpsh watch --json, has no room for it.
type entry struct {
	Info
	Token string `json:"token,omitempty"`
}

// link is how e's proxy is reached; linkNone: the entry is not a proxy's
// (a socket outside the folder, an address off loopback, a token missing
// or short).
func (e entry) link(dir string) linkKind {
	switch {
	case e.Socket == socketPath(dir, e.ID) && e.Addr == "" && e.Token == "":
		return linkSocket
	case e.Socket == "" && loopbackAddr(e.Addr) && validToken(e.Token):
		return linkToken
	}
	return linkNone
}

// writeEntry writes e whole: to a temporary name, then renamed. The file
// is 0600 (os.CreateTemp's), the narrowest mode Go offers; on Windows,
// where modes do not keep others out, the folder's ACL does.
func writeEntry(dir string, e entry) error {
	info := e.Info
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+info.ID+"-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(append(b, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o600)
	}
	if werr == nil {
		werr = os.Rename(tmp, entryPath(dir, info.ID))
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("registering the proxy: %w", werr)
	}
	return nil
}

// removeEntry removes a proxy's entry and socket.
func removeEntry(dir, id string) {
	os.Remove(entryPath(dir, id))
	os.Remove(socketPath(dir, id))
}

// List reads the proxies registered in dir, oldest first. An entry whose
// process is gone (a proxy killed before it could remove it) is dropped,
// and so is one that cannot be read, names a socket outside dir or an
// address off loopback, or lacks its token.
func List(dir string) ([]Info, error) {
	es, err := list(dir)
	out := make([]Info, len(es))
	for i, e := range es {
		out[i] = e.Info
	}
	return out, err
}

// list is List with the tokens, for a Watcher to present.
func list(dir string) ([]entry, error) {
	names, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []entry
	for _, n := range names {
		id, ok := strings.CutSuffix(n.Name(), ".json")
		if !ok || strings.HasPrefix(id, ".") || !n.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(entryPath(dir, id))
		if errors.Is(err, fs.ErrNotExist) {
			continue // it ended meanwhile
		}
		var e entry
		if err != nil || json.Unmarshal(b, &e) != nil || e.ID != id || e.link(dir) == linkNone || e.PID <= 0 {
			removeEntry(dir, id)
			continue
		}
		if !alive(e.PID) {
			removeEntry(dir, id)
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out, nil
}

// Drop removes a proxy's entry that a Watcher found stale: its socket, or
// its loopback port, refuses.
func Drop(dir string, info Info) { removeEntry(dir, info.ID) }
