package cli

import (
	"fmt"
	"os"
	"sync"

	"github.com/mcpsh/mcpsh/client"
)

// traceFile writes every JSON-RPC message in and out as one JSON line
// (--trace FILE), the same entries the TUI's traffic pane shows. Messages are
// written as they crossed the wire, arguments and results included: the file
// is 0600, and the flag's help says what it holds.
type traceFile struct {
	mu  sync.Mutex
	f   *os.File
	err error
}

func openTrace(path string) (*traceFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, &usageError{fmt.Sprintf("--trace %s: %v", path, err)}
	}
	// A trace holds every argument and result in full, so a file that was
	// already there is made private too; a pipe or a terminal
	// (--trace /dev/stderr) keeps its mode.
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, &usageError{fmt.Sprintf("--trace %s: cannot make it private: %v", path, err)}
		}
	}
	return &traceFile{f: f}, nil
}

// write is client.Options.Trace: it runs on the transports' goroutines.
func (t *traceFile) write(e client.TraceEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil {
		t.err = writeJSONLine(t.f, e)
	}
}

func (t *traceFile) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.f.Close(); t.err == nil {
		t.err = err
	}
	return t.err
}
