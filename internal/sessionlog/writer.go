// Package sessionlog keeps mcpsh's record of every call: one JSON line per call,
// written to the file before mcpsh moves on, so a crash or kill -9 loses nothing
// that had finished, and synced to disk in groups (sync.go). Arguments are
// redacted by default.
package sessionlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcpsh/mcpsh/client"
)

// Entry is one line of a session log: a call's outcome without its content
// (results can be large and private), plus its arguments as the mode allows.
type Entry struct {
	client.Outcome
	Args json.RawMessage `json:"args,omitempty"`
	// Result is what the log keeps of the result (results.go); absent in
	// none mode, for a call without a result, and in entries written before
	// results were kept.
	Result *Result `json:"result,omitempty"`
	// Session is the ID of the session the call belongs to. A session's own
	// file leaves it out (the file's name is the ID); the open-world log and
	// `mcpsh log --json` carry it.
	Session string `json:"session,omitempty"`
}

// Writer appends entries to one log file. It opens the file on the first
// record, so commands that make no call leave no empty log behind.
type Writer struct {
	mu      sync.Mutex
	path    string
	mode    ArgsMode
	results ResultsMode
	f       *os.File
	err     error
	// torn is set when the file we opened ends inside a line, left by a writer
	// that was killed while writing: the next entry must start a line of its own.
	torn bool

	syncer // when the written lines reach the disk (sync.go)

	// openWorld, when set, also receives every open-world entry, marked with
	// session (AlsoOpenWorld).
	openWorld *Writer
	session   string
}

// New returns a writer for path that keeps arguments as mode says and
// results as digests (KeepResults changes that); nothing is created until
// the first Record.
func New(path string, mode ArgsMode) *Writer {
	w := &Writer{path: path, mode: mode, results: ResultsDigest}
	w.syncer.init()
	return w
}

// AlsoOpenWorld has every open-world call recorded by w appended to ow as
// well, with session naming the session it belongs to. Sync and Close act on
// both.
func (w *Writer) AlsoOpenWorld(ow *Writer, session string) {
	w.openWorld, w.session = ow, session
	ow.KeepResults(w.ResultsMode())
}

// Path is the log file's path.
func (w *Writer) Path() string { return w.path }

// ArgsMode is how much of a call's arguments the log keeps.
func (w *Writer) ArgsMode() ArgsMode { return w.mode }

// KeepResults sets how much of each result the log keeps, before the first
// Record; the open-world log it feeds keeps the same.
func (w *Writer) KeepResults(m ResultsMode) {
	w.mu.Lock()
	w.results = m
	ow := w.openWorld
	w.mu.Unlock()
	if ow != nil {
		ow.KeepResults(m)
	}
}

// ResultsMode is how much of each result the log keeps.
func (w *Writer) ResultsMode() ResultsMode {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.results
}

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

// Record appends one call. The line is written to the file before Record
// returns, so it survives mcpsh being killed; it reaches the disk within
// SyncEvery, at the next Sync, or at Close, whichever comes first.
func (w *Writer) Record(o *client.Outcome) error {
	e := Entry{Outcome: *o, Result: KeepResult(w.ResultsMode(), o.Content, o.StructuredContent)}
	if e.Result != nil && w.mode == ArgsNone && w.ResultsMode() == ResultsDigest {
		// A result's text often quotes the arguments (Added note "…"): a log
		// told to keep no arguments keeps only the digest, unless told to
		// keep results in full.
		e.Result.Text, e.Result.TextCut = "", false
	}
	e.Content, e.StructuredContent = nil, nil
	e.LogError = ""
	redactMessages(&e.Outcome)
	if args := w.mode.Apply(o.Args); args != nil {
		b, err := json.Marshal(args)
		if err == nil {
			e.Args = b
		}
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encoding the log entry: %w", err)
	}
	err = w.append(line)
	if o.OpenWorld && w.openWorld != nil {
		e.Session = w.session
		if line, jerr := json.Marshal(e); jerr == nil {
			if owErr := w.openWorld.append(line); owErr != nil {
				err = errors.Join(err, fmt.Errorf("open-world log %s: %w", w.openWorld.path, owErr))
			}
		}
	}
	return err
}

// append writes one entry as one line, and has it synced within SyncEvery.
func (w *Writer) append(line []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.open(); err != nil {
		return err
	}
	buf := make([]byte, 0, len(line)+2)
	if w.torn {
		buf = append(buf, '\n')
	}
	buf = append(append(buf, line...), '\n')
	// One write of a whole line: a crash can cut only the last line short,
	// and writers appending to the same file (the open-world log) do not
	// interleave within a line.
	if _, err := w.f.Write(buf); err != nil {
		return fmt.Errorf("writing the session log: %w", err)
	}
	w.torn = false
	return w.written()
}

// Close syncs what is not on disk yet and closes the file, if it was opened,
// and the open-world log's.
func (w *Writer) Close() error {
	err := w.close()
	if w.openWorld != nil {
		err = errors.Join(err, w.openWorld.close())
	}
	return err
}

func (w *Writer) close() error {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopTimer()
	if w.f == nil {
		return nil
	}
	err := w.takeSyncErr()
	if w.dirty {
		w.dirty = false
		if serr := w.syncFile(w.f); serr != nil {
			err = errors.Join(err, fmt.Errorf("syncing the session log: %w", serr))
		}
	}
	err = errors.Join(err, w.f.Close())
	w.f = nil
	// A Record after Close opens the file again rather than writing to a
	// closed one.
	return err
}
