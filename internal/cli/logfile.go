package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
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
	fs.StringVar(&f.path, "log", "", "append the session log to `FILE` (default: a new file under $XDG_STATE_HOME/mcpsh/sessions; open-world calls go to the state folder's openworld.jsonl either way)")
	fs.BoolVar(&f.off, "no-log", false, "do not keep a session log, nor the open-world log")
	fs.StringVar(&f.args, "log-args", string(sessionlog.ArgsRedact), "how the log keeps call arguments: full, redact (secret-looking keys and values) or none")
	fs.StringVar(&f.trace, "trace", "", "append every JSON-RPC message in and out to `FILE` as JSON lines (arguments and results as sent; the file is 0600)")
}

// openLog sets up the session log for a command that makes calls. A log file
// the user named must be writable before anything is sent; the default one is
// best effort, with a warning. Open-world calls also go to the open-world log
// in the state folder, with --log as without. A new session in the state
// folder first prunes the old ones the retention does not keep.
func (f *factory) openLog() error {
	if f.log != nil || f.logs.off {
		return nil
	}
	mode, err := sessionlog.ParseArgsMode(f.logs.args)
	if err != nil {
		return &usageError{err.Error()}
	}
	dir, dirErr := sessionlog.SessionsDir(f.getenv)
	path, session := f.logs.path, ""
	if path == "" {
		if dirErr != nil {
			fmt.Fprintln(f.io.ErrOut, "mcpsh: warning: no session log:", dirErr)
			return nil
		}
		path = sessionlog.DefaultPath(dir, time.Now(), os.Getpid())
		session = sessionlog.IDOf(path)
	} else if abs, err := filepath.Abs(path); err == nil {
		// A --log file is not in the sessions folder: the open-world log
		// names it by its path, so its entries can be found.
		session = abs
	}
	f.log = sessionlog.New(path, mode)
	if f.logs.path != "" {
		if err := f.log.Open(); err != nil {
			f.log = nil
			return &usageError{fmt.Sprintf("--log %s: %v", path, err)}
		}
	}
	if dirErr == nil {
		ret, ok := f.retention()
		if ok {
			f.tidyLogs(dir, path, ret)
		}
		f.log.AlsoOpenWorld(sessionlog.New(sessionlog.OpenWorldPath(dir), mode), session)
	} else {
		f.warn("no open-world log: " + dirErr.Error())
	}
	f.recorder = f.log.Record
	return nil
}

// retention is the config's "log" key over the defaults. Only mcpsh's own
// file is read for it, not other hosts' (which --demo has no need to look
// at). A config file that cannot be read prunes nothing: it may ask to keep
// more than the defaults.
func (f *factory) retention() (sessionlog.Retention, bool) {
	r := sessionlog.DefaultRetention()
	var l config.Log
	if f.cfg != nil {
		l = f.cfg.Log
	} else {
		path, found, err := config.Find(f.configPath, f.getenv)
		if err == nil && found {
			var file *config.File
			if file, err = config.Load(path, f.getenv); err == nil {
				l = file.Log
			}
		}
		if err != nil {
			f.warn("old session logs are not pruned: " + err.Error())
			return r, false
		}
	}
	if l.MaxAge > 0 {
		r.MaxAge = l.MaxAge
	}
	if l.MaxSize > 0 {
		r.MaxSize = l.MaxSize
	}
	return r, true
}

// tidyLogs prunes the sessions folder (only when this process starts a
// session there, never its own file, at most hourly) and rotates the
// open-world log.
// Problems are warnings: housekeeping never stops a call.
func (f *factory) tidyLogs(dir, path string, r sessionlog.Retention) {
	if f.logs.path == "" {
		_, errs, _ := r.MaybePrune(dir, path, time.Now())
		for _, err := range errs {
			f.warn(err.Error())
		}
	}
	if _, err := r.RotateOpenWorld(sessionlog.OpenWorldPath(dir)); err != nil {
		f.warn(err.Error())
	}
}

// beforeSend runs right before a call is sent (client.Options.BeforeSend):
// a destructive or open-world call is preceded by every entry written so far
// reaching the disk, whatever SyncEvery would have waited for.
func (f *factory) beforeSend(o *client.Outcome) {
	if f.log == nil || !syncsFirst(o) {
		return
	}
	if err := f.syncLog(f.log, o); err != nil {
		f.warn("session log: " + termtext.Line(err.Error()))
	}
}

// syncsFirst says which calls the log is synced for before they are sent.
func syncsFirst(o *client.Outcome) bool {
	return o.Class == policy.ClassDestructive || o.OpenWorld
}
