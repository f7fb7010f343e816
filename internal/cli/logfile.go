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
	path    string
	off     bool
	args    string
	results string // "" when not given: the config's log.results, else digest
	trace   string
}

func (f *logFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.path, "log", "", "append the session log to `FILE` (default: a new file under $XDG_STATE_HOME/mcpsh/sessions; open-world calls go to the state folder's openworld.jsonl either way)")
	fs.BoolVar(&f.off, "no-log", false, "do not keep a session log, nor the open-world log")
	fs.StringVar(&f.args, "log-args", string(sessionlog.ArgsRedact), "how the log keeps call arguments: full, redact (secret-looking keys and values) or none")
	fs.StringVar(&f.results, "log-results", "", "how the log keeps call results: digest (size, SHA-256 and the start of the text; the default, or config log.results), full (up to 64 KiB, redacted) or none")
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
	if f.logs.results != "" {
		if _, err := sessionlog.ParseResultsMode(f.logs.results); err != nil {
			return &usageError{"--log-results " + err.Error()}
		}
	}
	own, ownErr := f.ownLogConfig()
	results, err := f.resultsMode(own, ownErr)
	if err != nil {
		return err
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
	f.log.KeepResults(results)
	if f.logs.path != "" {
		if err := f.log.Open(); err != nil {
			f.log = nil
			return &usageError{fmt.Sprintf("--log %s: %v", path, err)}
		}
	}
	if dirErr == nil {
		if ownErr != nil {
			f.warn("old session logs are not pruned: " + ownErr.Error())
		} else {
			f.tidyLogs(dir, path, retention(own))
		}
		f.log.AlsoOpenWorld(sessionlog.New(sessionlog.OpenWorldPath(dir), mode), session)
	} else {
		f.warn("no open-world log: " + dirErr.Error())
	}
	f.recorder = f.log.Record
	return nil
}

// ownLogConfig is the config's "log" key. Only mcpsh's own file is read
// for it, not other hosts' (which --demo has no need to look at).
func (f *factory) ownLogConfig() (config.Log, error) {
	if f.cfg != nil {
		return f.cfg.Log, nil
	}
	path, found, err := config.Find(f.configPath, f.getenv)
	if err != nil || !found {
		return config.Log{}, err
	}
	file, err := config.Load(path, f.getenv)
	if err != nil {
		return config.Log{}, err
	}
	return file.Log, nil
}

// resultsMode is how much of each result the log keeps: --log-results
// (checked already), else the config's log.results, else digest. Without
// the flag, a config file that cannot be read is the command's error (it
// names the file and the key), before anything is sent: it may have asked
// to keep less than the default, and every command that logs reads the
// file for its target anyway.
func (f *factory) resultsMode(own config.Log, ownErr error) (sessionlog.ResultsMode, error) {
	switch {
	case f.logs.results != "":
		return sessionlog.ResultsMode(f.logs.results), nil
	case ownErr != nil:
		return "", ownErr
	case own.Results != "":
		return sessionlog.ResultsMode(own.Results), nil
	}
	return sessionlog.ResultsDigest, nil
}

// retention is the config's "log" key over the defaults. A config file that
// cannot be read prunes nothing: it may ask to keep more than the defaults.
func retention(l config.Log) sessionlog.Retention {
	r := sessionlog.DefaultRetention()
	if l.MaxAge > 0 {
		r.MaxAge = l.MaxAge
	}
	if l.MaxSize > 0 {
		r.MaxSize = l.MaxSize
	}
	return r
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
