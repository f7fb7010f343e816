package hostedit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// maxFile bounds a host's file, as discovery does: ~/.claude.json keeps
// every project's history and can run to megabytes.
const maxFile = 64 << 20

// Snapshot is a host's file as read before an edit: where it really is
// (a symlink resolved, so the edit goes to its target and the link stays),
// its text, and what to check it by before the edit replaces it (its
// size, time and bytes).
type Snapshot struct {
	// Path is the file as named; Real is where its bytes are.
	Path, Real string
	Data       []byte
	mode       os.FileMode
	size       int64
	mtime      time.Time
}

// Read reads the file at path for an edit. It must be a regular file: a
// FIFO placed where a config belongs would block for ever.
func Read(path string) (*Snapshot, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case fi.Size() > maxFile:
		return nil, fmt.Errorf("%s is larger than %d MiB", path, maxFile>>20)
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, err
	}
	return &Snapshot{Path: path, Real: real, Data: data, mode: fi.Mode().Perm(), size: fi.Size(), mtime: fi.ModTime()}, nil
}

// ErrChanged is what Replace returns when the file changed after it was
// read: someone (a running host) wrote it meanwhile, and their write wins.
var ErrChanged = errors.New("changed since mcpsh read it")

// Replace writes text over the file, atomically: a temporary file in the
// same folder with the same permissions, synced, renamed over it; but only
// if the file is still what was read (size, time and content), so a host
// that wrote it in the meantime does not lose its change.
func (s *Snapshot) Replace(text []byte) error {
	dir := filepath.Dir(s.Real)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(s.Real)+".mcpsh-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(s.mode); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(text); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := s.unchanged(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), s.Real); err != nil {
		return err
	}
	done = true
	syncDir(dir)
	return nil
}

// unchanged checks the file is still what Read read.
func (s *Snapshot) unchanged() error {
	fi, err := os.Stat(s.Real)
	if err != nil {
		return fmt.Errorf("%s: %w (%v)", s.Path, ErrChanged, err)
	}
	if fi.Size() != s.size || !fi.ModTime().Equal(s.mtime) {
		return fmt.Errorf("%s: %w", s.Path, ErrChanged)
	}
	data, err := os.ReadFile(s.Real)
	if err != nil || !bytes.Equal(data, s.Data) {
		return fmt.Errorf("%s: %w", s.Path, ErrChanged)
	}
	return nil
}

// syncDir makes a rename in dir durable where the platform can; a folder
// that cannot be synced (Windows) is no error.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
