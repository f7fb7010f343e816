package sessionlog

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// SyncEvery is the longest a written entry waits to be synced to disk. An
// fsync costs about as much as a read-only call to a local server, so paying
// one per call would make a script of quick calls several times slower; a
// write is what protects against mcpsh being killed, and the sync is what
// protects against the machine stopping, which 50 ms of read-only calls may
// be lost to. Calls that change the world get more: the caller syncs before
// a destructive or open-world call is sent (Sync, from client.Options.BeforeSend).
const SyncEvery = 50 * time.Millisecond

// syncer is the part of a Writer that decides when written lines are synced.
// Its fields other than syncMu are guarded by Writer.mu.
type syncer struct {
	// syncMu keeps a sync and Close apart, so the file is not closed under
	// an fsync; it is taken before Writer.mu. Writes do not wait for it.
	syncMu sync.Mutex
	// dirty: lines were written since the last sync began.
	dirty bool
	// stop cancels the armed timer; nil when none is armed.
	stop func() bool
	// syncErr is a failed timer sync, reported by the next Record, Sync or Close.
	syncErr error

	every    time.Duration
	schedule func(time.Duration, func()) (stop func() bool)
	syncFile func(*os.File) error
}

func (s *syncer) init() {
	s.every = SyncEvery
	s.schedule = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	s.syncFile = (*os.File).Sync
}

// written notes a line written, with w.mu held: the line is synced when the
// timer fires, unless a Sync or Close comes first.
func (w *Writer) written() error {
	w.dirty = true
	if w.stop == nil {
		w.stop = w.schedule(w.every, w.timerSync)
	}
	return w.takeSyncErr()
}

func (w *Writer) timerSync() {
	w.mu.Lock()
	w.stop = nil
	w.mu.Unlock()
	if err := w.syncNow(); err != nil {
		w.mu.Lock()
		w.syncErr = err
		w.mu.Unlock()
	}
}

// Sync puts every line written so far on disk, the open-world log's too.
// It does nothing when nothing was written since the last sync, so it is
// cheap to call before every call that matters.
func (w *Writer) Sync() error {
	err := w.syncNow()
	w.mu.Lock()
	err = errors.Join(w.takeSyncErr(), err)
	w.mu.Unlock()
	if w.openWorld != nil {
		err = errors.Join(err, w.openWorld.Sync())
	}
	return err
}

func (w *Writer) syncNow() error {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.mu.Lock()
	f, dirty := w.f, w.dirty
	w.dirty = false
	w.mu.Unlock()
	if f == nil || !dirty {
		return nil
	}
	// Without w.mu: the next call's line may be written while this one syncs.
	if err := w.syncFile(f); err != nil {
		w.mu.Lock()
		w.dirty = true
		w.mu.Unlock()
		return fmt.Errorf("syncing the session log: %w", err)
	}
	return nil
}

func (w *Writer) takeSyncErr() error {
	err := w.syncErr
	w.syncErr = nil
	return err
}

func (w *Writer) stopTimer() {
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
}
