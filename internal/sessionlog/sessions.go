package sessionlog

import (
	"errors"
	"fmt"
	"github.com/mcpsh/mcpsh/internal/paths"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SessionsDir is where session logs go: sessions in mcpsh's state folder
// ($XDG_STATE_HOME/mcpsh, ~/.local/state/mcpsh, %LOCALAPPDATA%\mcpsh on
// Windows: internal/paths).
func SessionsDir(getenv func(string) (string, bool)) (string, error) {
	dir, err := paths.StateDir(getenv)
	if err != nil {
		return "", fmt.Errorf("cannot place the session log: %w (use --log FILE or --no-log)", err)
	}
	return filepath.Join(dir, "sessions"), nil
}

// OpenWorldPath is the open-world log that goes with a sessions folder: next
// to it, in mcpsh's state folder, so it can be tailed or shipped on its own.
func OpenWorldPath(sessionsDir string) string {
	return filepath.Join(filepath.Dir(sessionsDir), "openworld.jsonl")
}

// DefaultPath names a new session's log: the start time first, so names sort
// in time order, and the process ID, so two sessions never share a file.
func DefaultPath(dir string, now time.Time, pid int) string {
	return filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", now.UTC().Format(stampLayout), pid))
}

const stampLayout = "20060102T150405.000Z"

// Session is one session log in the sessions folder.
type Session struct {
	// ID is the file's name without .jsonl: its start time and process ID.
	ID    string
	Path  string
	Start time.Time
	PID   int
}

// ParseSession reads a session log's file name; ok is false for a name
// DefaultPath would not give. Only such files are read as sessions, followed
// and pruned: anything else in the folder was put there by someone else and
// is left alone.
func ParseSession(dir, name string) (s Session, ok bool) {
	stamp, pid, ok := sessionName(name)
	if !ok {
		return Session{}, false
	}
	start, err := time.Parse(stampLayout, stamp)
	if err != nil {
		return Session{}, false
	}
	return Session{ID: strings.TrimSuffix(name, ".jsonl"), Path: filepath.Join(dir, name), Start: start, PID: pid}, true
}

// sessionName splits a name such as "20261122T061417.123Z-4242.jsonl" into
// its time stamp and process ID. It is written out rather than a regular
// expression because pruning runs it on every file of the folder.
func sessionName(name string) (stamp string, pid int, ok bool) {
	const shape = "ddddddddTdddddd.dddZ-"
	base, found := strings.CutSuffix(name, ".jsonl")
	if !found || len(base) <= len(shape) || len(base) > len(shape)+10 {
		return "", 0, false
	}
	for i := 0; i < len(base); i++ {
		c, want := base[i], byte('d')
		if i < len(shape) {
			want = shape[i]
		}
		if (want == 'd' && (c < '0' || c > '9')) || (want != 'd' && c != want) {
			return "", 0, false
		}
	}
	pid, err := strconv.Atoi(base[len(shape):])
	return base[:len(shape)-1], pid, err == nil
}

// IDOf is the session ID of a log file: its name without the extension.
func IDOf(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// Sessions lists the session logs in dir, newest first. A folder that does not
// exist yet holds none.
func Sessions(dir string) ([]Session, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Session
	for _, de := range des {
		if s, ok := ParseSession(dir, de.Name()); ok && de.Type().IsRegular() {
			out = append(out, s)
		}
	}
	// The names start with the start time in a fixed width, so they sort by it.
	slices.SortFunc(out, func(a, b Session) int { return strings.Compare(b.ID, a.ID) })
	return out, nil
}

// Latest returns the newest session log in dir.
func Latest(dir string) (string, error) {
	ss, err := Sessions(dir)
	if err != nil {
		return "", err
	}
	if len(ss) == 0 {
		return "", noSessions(dir)
	}
	return ss[0].Path, nil
}

func noSessions(dir string) error {
	return fmt.Errorf("no session logs in %s yet: calls made with mcpsh are logged there", dir)
}

// Find picks a session by ID, or the newest for "latest". An unknown ID is an
// error that lists the newest few, so a typo is easy to put right.
func Find(sessions []Session, dir, id string) (Session, error) {
	if len(sessions) == 0 {
		return Session{}, noSessions(dir)
	}
	if id == "latest" {
		return sessions[0], nil
	}
	id = strings.TrimSuffix(id, ".jsonl")
	for _, s := range sessions {
		if s.ID == id {
			return s, nil
		}
	}
	var ids []string
	for _, s := range sessions[:min(5, len(sessions))] {
		ids = append(ids, s.ID)
	}
	more := ""
	if len(sessions) > len(ids) {
		more = fmt.Sprintf(", and %d older", len(sessions)-len(ids))
	}
	return Session{}, fmt.Errorf("--session %q: no such session in %s (newest: %s%s)", id, dir, strings.Join(ids, ", "), more)
}
