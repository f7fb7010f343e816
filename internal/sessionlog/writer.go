// Package sessionlog keeps mcpsh's record of every call: one JSON line per call,
// appended and synced to disk before mcpsh moves on, so a crash or kill -9
// loses nothing that had finished. Arguments are redacted by default.
package sessionlog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/client"
)

// Entry is one line of a session log: a call's outcome without its content
// (results can be large and private), plus its arguments as the mode allows.
type Entry struct {
	client.Outcome
	Args json.RawMessage `json:"args,omitempty"`
}

// Writer appends entries to one log file. It opens the file on the first
// record, so commands that make no call leave no empty log behind.
type Writer struct {
	mu   sync.Mutex
	path string
	mode ArgsMode
	f    *os.File
	err  error
	// torn is set when the file we opened ends inside a line, left by a writer
	// that was killed while writing: the next entry must start a line of its own.
	torn bool
}

// New returns a writer for path; nothing is created until the first Record.
func New(path string, mode ArgsMode) *Writer {
	return &Writer{path: path, mode: mode}
}

// Path is the log file's path.
func (w *Writer) Path() string { return w.path }

// Open creates the folder (0700) and the file (0600) now, so a bad --log path
// fails before any call is made.
func (w *Writer) Open() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.open()
}

func (w *Writer) open() error {
	if w.f != nil || w.err != nil {
		return w.err
	}
	dir := filepath.Dir(w.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		w.err = fmt.Errorf("creating the session log folder: %w", err)
		return w.err
	}
	// Read as well as append, to see how the file ends.
	f, err := os.OpenFile(w.path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		w.err = fmt.Errorf("opening the session log: %w", err)
		return w.err
	}
	if w.torn, err = endsInsideLine(f); err != nil {
		f.Close()
		w.err = fmt.Errorf("reading the end of the session log: %w", err)
		return w.err
	}
	w.f = f
	return nil
}

// endsInsideLine reports whether f is not empty and its last byte is not '\n'.
func endsInsideLine(f *os.File) (bool, error) {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false, err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// Record appends one call and syncs it to disk before returning.
func (w *Writer) Record(o *client.Outcome) error {
	e := Entry{Outcome: *o}
	e.Content, e.StructuredContent = nil, nil
	e.LogError = ""
	redactMessages(&e.Outcome)
	if args := w.mode.apply(o.Args); args != nil {
		b, err := json.Marshal(args)
		if err == nil {
			e.Args = b
		}
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encoding the log entry: %w", err)
	}
	line = append(line, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.open(); err != nil {
		return err
	}
	if w.torn {
		line = append([]byte{'\n'}, line...)
	}
	// One write of a whole line: a crash can cut only the last line short.
	if _, err := w.f.Write(line); err != nil {
		return fmt.Errorf("writing the session log: %w", err)
	}
	w.torn = false
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("syncing the session log: %w", err)
	}
	return nil
}

// Close closes the file, if it was opened.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}

// SessionsDir is where session logs go: $XDG_STATE_HOME/mcpsh/sessions, with
// XDG_STATE_HOME defaulting to ~/.local/state.
func SessionsDir(getenv func(string) (string, bool)) (string, error) {
	if d, ok := getenv("XDG_STATE_HOME"); ok && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpsh", "sessions"), nil
	}
	home, ok := getenv("HOME")
	if !ok || !filepath.IsAbs(home) {
		return "", fmt.Errorf("cannot place the session log: neither XDG_STATE_HOME nor HOME is an absolute path (use --log FILE or --no-log)")
	}
	return filepath.Join(home, ".local", "state", "mcpsh", "sessions"), nil
}

// DefaultPath names a new session's log: the start time first, so names sort
// in time order, and the process ID, so two sessions never share a file.
func DefaultPath(dir string, now time.Time, pid int) string {
	return filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", now.UTC().Format("20060102T150405.000Z"), pid))
}
