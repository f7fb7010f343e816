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

// writeEntry writes info's entry whole: to a temporary name, then renamed.
func writeEntry(dir string, info Info) error {
	b, err := json.Marshal(info)
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
// and so is one that cannot be read, or names a socket outside dir.
func List(dir string) ([]Info, error) {
	names, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, n := range names {
		id, ok := strings.CutSuffix(n.Name(), ".json")
		if !ok || strings.HasPrefix(id, ".") || !n.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(entryPath(dir, id))
		if errors.Is(err, fs.ErrNotExist) {
			continue // it ended meanwhile
		}
		var info Info
		if err != nil || json.Unmarshal(b, &info) != nil || info.ID != id || info.Socket != socketPath(dir, id) || info.PID <= 0 {
			removeEntry(dir, id)
			continue
		}
		if !alive(info.PID) {
			removeEntry(dir, id)
			continue
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out, nil
}

// Drop removes a proxy's entry that a Watcher found stale: its socket
// refuses.
func Drop(dir string, info Info) { removeEntry(dir, info.ID) }
