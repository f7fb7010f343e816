package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpsh/mcpsh/internal/paths"
)

// Find says which configuration file to load. The first of these wins:
//
//  1. explicit, the file named by --config, which must exist;
//  2. $MCPSH_CONFIG, which must exist;
//  3. config.json in mcpsh's config folder (internal/paths):
//     $XDG_CONFIG_HOME/mcpsh, else %APPDATA%\mcpsh on Windows and
//     $HOME/.config/mcpsh elsewhere. This one may be missing: then found is
//     false, err is nil, and path still names it so a message can say where a
//     file would go.
//
// Find never looks in the working directory, for .mcp.json, .vscode/mcp.json
// or anything else, and ignores a relative XDG_CONFIG_HOME, APPDATA or HOME: a
// repository someone clones must not be able to make mcpsh start a program.
// Such a file is used only when the user names it. A nil getenv means no
// variable is set.
func Find(explicit string, getenv func(string) (string, bool)) (path string, found bool, err error) {
	if getenv == nil {
		getenv = noEnv
	}
	if explicit != "" {
		return mustExist(explicit, "--config")
	}
	if p, _ := getenv("MCPSH_CONFIG"); p != "" {
		return mustExist(p, "$MCPSH_CONFIG")
	}
	dir, err := paths.ConfigDir(getenv)
	if err != nil {
		return "", false, nil
	}
	path = filepath.Join(dir, "config.json")
	if err := isFile(path, ""); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return path, false, nil
		}
		return path, false, err
	}
	return path, true, nil
}

// mustExist returns path if it is a file, and an error naming who asked for it
// otherwise.
func mustExist(path, by string) (string, bool, error) {
	if err := isFile(path, by); err != nil {
		return path, false, err
	}
	return path, true, nil
}

// isFile returns nil when path is a file (or a link to one), and an *Error
// otherwise. by, when not empty, says who named the path.
func isFile(path, by string) error {
	suffix := ""
	if by != "" {
		suffix = " (named by " + by + ")"
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{File: path, Msg: "no such file" + suffix, Err: err}
	case err != nil:
		msg := err.Error()
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		return &Error{File: path, Msg: msg + suffix, Err: err}
	case fi.IsDir():
		return &Error{File: path, Msg: "is a directory, not a file" + suffix}
	}
	return nil
}
