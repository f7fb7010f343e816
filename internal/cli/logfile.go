package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/spf13/pflag"
)

// logFlags choose where the session log goes.
type logFlags struct {
	path  string
	off   bool
	args  string
	trace string
}

func (f *logFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.path, "log", "", "append the session log to `FILE` (default: a new file under $XDG_STATE_HOME/mcpsh/sessions)")
	fs.BoolVar(&f.off, "no-log", false, "do not keep a session log")
	fs.StringVar(&f.args, "log-args", string(sessionlog.ArgsRedact), "how the log keeps call arguments: full, redact (secret-looking keys and values) or none")
	fs.StringVar(&f.trace, "trace", "", "append every JSON-RPC message in and out to `FILE` as JSON lines (arguments and results as sent; the file is 0600)")
}

// openLog sets up the session log for a command that makes calls. A log file
// the user named must be writable before anything is sent; the default one is
// best effort, with a warning.
func (a *app) openLog() error {
	if a.log != nil || a.logs.off {
		return nil
	}
	mode, err := sessionlog.ParseArgsMode(a.logs.args)
	if err != nil {
		return &usageError{err.Error()}
	}
	path := a.logs.path
	if path == "" {
		dir, err := sessionlog.SessionsDir(a.getenv)
		if err != nil {
			fmt.Fprintln(a.io.ErrOut, "mcpsh: warning: no session log:", err)
			return nil
		}
		path = sessionlog.DefaultPath(dir, time.Now(), os.Getpid())
	}
	a.log = sessionlog.New(path, mode)
	if a.logs.path != "" {
		if err := a.log.Open(); err != nil {
			a.log = nil
			return &usageError{fmt.Sprintf("--log %s: %v", path, err)}
		}
	}
	a.recorder = a.log.Record
	return nil
}
