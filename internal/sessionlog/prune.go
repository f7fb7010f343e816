package sessionlog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Defaults for retention, when the config file sets no "log" key: a month of
// sessions, and at most 200 MB of them (an entry is about 600 bytes, so that
// is some 300,000 calls).
const (
	DefaultMaxAge  = 30 * 24 * time.Hour
	DefaultMaxSize = 200 << 20
)

// Retention says which sessions to keep.
type Retention struct {
	// MaxAge: a session whose file was last written longer ago goes.
	MaxAge time.Duration
	// MaxSize bounds the session logs together, in bytes; the least recently
	// written go first. The open-world log is rotated at a tenth of it.
	MaxSize int64
}

// DefaultRetention is the retention when the config says nothing.
func DefaultRetention() Retention {
	return Retention{MaxAge: DefaultMaxAge, MaxSize: DefaultMaxSize}
}

// Prune removes the session logs in dir that retention does not keep, oldest
// first, and returns the IDs of those it removed. It looks only at files named
// as DefaultPath names them, never at keep (the log this process is about to
// write), and never at a session whose process still runs, such as an
// interactive session in another terminal: deleting a file being written
// would lose what is written to it after. It costs one directory listing and
// a stat per session. A file it could not remove is an error in errs, and
// the rest go on: pruning is housekeeping, never a reason to stop.
func (r Retention) Prune(dir, keep string, now time.Time) (removed []string, errs []error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	type file struct {
		name  string
		pid   int
		mtime time.Time
		size  int64
	}
	var files []file
	var total int64
	for _, de := range des {
		_, pid, ok := sessionName(de.Name())
		if !ok || !de.Type().IsRegular() {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue // gone since the listing
		}
		total += fi.Size()
		if keep != "" && filepath.Base(keep) == de.Name() {
			continue
		}
		files = append(files, file{de.Name(), pid, fi.ModTime(), fi.Size()})
	}
	slices.SortFunc(files, func(a, b file) int {
		if c := a.mtime.Compare(b.mtime); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	for _, f := range files {
		old := r.MaxAge > 0 && now.Sub(f.mtime) > r.MaxAge
		big := r.MaxSize > 0 && total > r.MaxSize
		if !old && !big {
			continue
		}
		if processAlive(f.pid) {
			continue
		}
		id := strings.TrimSuffix(f.name, ".jsonl")
		if err := os.Remove(filepath.Join(dir, f.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("removing old session %s: %w", id, err))
			continue
		}
		total -= f.size
		removed = append(removed, id)
	}
	return removed, errs
}

// PruneEvery is how often MaybePrune prunes: a stat per session is cheap for
// one session start, but not for every `mcpsh call` of a script, in a folder
// of thousands. A folder may grow past MaxSize by an hour's sessions.
const PruneEvery = time.Hour

// prunedStamp is the file whose time says when the folder was last pruned.
// Its name is not a session's, so nothing reads or prunes it.
const prunedStamp = ".pruned"

// MaybePrune prunes as Prune does, unless the folder was pruned less than
// PruneEvery ago (or half MaxAge, if that is shorter). ran says whether it
// pruned.
func (r Retention) MaybePrune(dir, keep string, now time.Time) (removed []string, errs []error, ran bool) {
	every := PruneEvery
	if r.MaxAge > 0 {
		every = min(every, r.MaxAge/2)
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, false // no sessions yet
	}
	stamp := filepath.Join(dir, prunedStamp)
	if fi, err := os.Stat(stamp); err == nil && now.Sub(fi.ModTime()) < every && !fi.ModTime().After(now) {
		return nil, nil, false
	}
	if err := os.WriteFile(stamp, nil, 0o600); err != nil {
		errs = append(errs, fmt.Errorf("noting the time of pruning: %w", err))
	} else {
		os.Chtimes(stamp, now, now)
	}
	removed, perrs := r.Prune(dir, keep, now)
	return removed, append(errs, perrs...), true
}

// RotateOpenWorld moves the open-world log at path aside, to openworld.1.jsonl
// (replacing the one before), when it has grown past a tenth of MaxSize. It
// runs when a session starts, like Prune. A writer that has it open goes on
// appending to the moved file, so nothing is lost, only filed one generation
// early.
func (r Retention) RotateOpenWorld(path string) (rotated bool, err error) {
	limit := r.MaxSize / 10
	if limit <= 0 {
		return false, nil
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Size() <= limit) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := os.Rename(path, RotatedPath(path)); err != nil {
		return false, fmt.Errorf("rotating the open-world log: %w", err)
	}
	return true, nil
}

// RotatedPath is where RotateOpenWorld moves the open-world log.
func RotatedPath(path string) string {
	return strings.TrimSuffix(path, ".jsonl") + ".1.jsonl"
}
