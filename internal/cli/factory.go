package cli

import (
	"bufio"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// factory is what every command of one invocation shares, as cli/cli's
// cmdutil.Factory is: the streams and the environment, the config, the
// target flags and how to connect (connect.go), the session log, the trace,
// and stderr's warnings and status line. A command's own flags and state
// live in its options struct (toolsOptions, runOptions...), never here.
type factory struct {
	io     *iostreams.IOStreams
	getenv func(string) (string, bool)
	// getwd is where project config files are looked for.
	getwd func() (string, error)
	// newDemo builds the --demo server; tests keep the one it built to
	// count what it ran.
	newDemo func() *demo.Server
	// syncLog syncs the session log before a destructive or open-world call
	// is sent (beforeSend); tests watch when.
	syncLog func(*sessionlog.Writer, *client.Outcome) error
	// hurry is closed by a second interrupt (WithHurry).
	hurry <-chan struct{}

	configPath string
	target     targetFlags
	cfg        *config.File
	cfgErr     error

	logs logFlags
	log  *sessionlog.Writer
	// recorder receives every call's outcome (the session log); nil for none.
	recorder func(*client.Outcome) error
	// trace is --trace's file, opened by the first command that connects.
	trace *traceFile

	// progress is the status line of the call in flight, which owns stderr
	// while it is drawn; warnings go above it.
	progress atomic.Pointer[progressLine]
	// stdin reads the answers to confirmations asked on the terminal.
	stdin *bufio.Reader
}

// newFactory is the factory of one run of mcpsh on these streams and this
// environment.
func newFactory(io *iostreams.IOStreams, getenv func(string) (string, bool)) *factory {
	return &factory{io: io, getenv: getenv, getwd: os.Getwd, newDemo: demo.New,
		syncLog: func(w *sessionlog.Writer, _ *client.Outcome) error { return w.Sync() }}
}

// close ends what the commands opened: the session log and the trace.
func (f *factory) close() {
	if f.log != nil {
		f.log.Close()
	}
	if f.trace != nil {
		if err := f.trace.Close(); err != nil {
			fmt.Fprintln(f.io.ErrOut, "mcpsh: warning: the trace is incomplete:", err)
		}
	}
}

// warn prints a warning on stderr, above a call's status line if one is drawn.
// It may run on the client's goroutines (Options.OnWarning).
func (f *factory) warn(msg string) {
	f.note("mcpsh: warning: " + termtext.Line(msg))
}

// note prints a line on stderr, above a call's status line if one is drawn.
func (f *factory) note(line string) {
	if p := f.progress.Load(); p != nil {
		p.println(line)
		return
	}
	fmt.Fprintln(f.io.ErrOut, line)
}
