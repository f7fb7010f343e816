// Package paths says where mcpsh keeps its own files, by platform: the config
// folder (config.json) and the state folder (session logs, token files, the
// handshake each stdio server settled on when it needed a fallback).
//
// The XDG variables win on every platform, so a test, a container or a user
// who sets them gets the same folders everywhere. Without them, Windows uses
// its own folders (%APPDATA% roams with the user, as a config should;
// %LOCALAPPDATA% stays on the machine, as logs and tokens should), and every
// other system the XDG defaults under $HOME. macOS included: the README has
// always promised ~/.config/mcpsh there, and state beside it in ~/.local/state
// rather than ~/Library/Application Support keeps one layout for a terminal
// tool's files. This is gh's order too (cli/go-gh, pkg/config).
//
// A variable holding a relative path is ignored, as the XDG specification
// asks: a folder relative to wherever mcpsh was started could be one a cloned
// repository controls. Standard library only.
package paths

import (
	"fmt"
	"path/filepath"
	"runtime"
)

// ConfigDir is mcpsh's config folder: $XDG_CONFIG_HOME/mcpsh, else
// %APPDATA%\mcpsh on Windows and $HOME/.config/mcpsh elsewhere. A nil getenv
// means no variable is set.
func ConfigDir(getenv func(string) (string, bool)) (string, error) {
	return configDir(runtime.GOOS, getenv)
}

// StateDir is mcpsh's state folder: $XDG_STATE_HOME/mcpsh, else
// %LOCALAPPDATA%\mcpsh on Windows and $HOME/.local/state/mcpsh elsewhere.
func StateDir(getenv func(string) (string, bool)) (string, error) {
	return stateDir(runtime.GOOS, getenv)
}

// RuntimeDir is where mcpsh keeps what lives only as long as its processes
// (the running proxies' registrations and sockets): $XDG_RUNTIME_DIR/mcpsh,
// a folder the system makes for the user alone and empties at logout; else
// the state folder.
func RuntimeDir(getenv func(string) (string, bool)) (string, error) {
	if getenv != nil {
		if d, _ := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
			return filepath.Join(d, "mcpsh"), nil
		}
	}
	return StateDir(getenv)
}

func configDir(goos string, getenv func(string) (string, bool)) (string, error) {
	if goos == "windows" {
		return dir(getenv, "XDG_CONFIG_HOME", "APPDATA", "")
	}
	return dir(getenv, "XDG_CONFIG_HOME", "HOME", ".config")
}

func stateDir(goos string, getenv func(string) (string, bool)) (string, error) {
	if goos == "windows" {
		return dir(getenv, "XDG_STATE_HOME", "LOCALAPPDATA", "")
	}
	return dir(getenv, "XDG_STATE_HOME", "HOME", filepath.Join(".local", "state"))
}

// dir is $xdg/mcpsh, else $base/under/mcpsh, taking only absolute paths.
func dir(getenv func(string) (string, bool), xdg, base, under string) (string, error) {
	if getenv == nil {
		getenv = func(string) (string, bool) { return "", false }
	}
	if d, _ := getenv(xdg); filepath.IsAbs(d) {
		return filepath.Join(d, "mcpsh"), nil
	}
	if d, _ := getenv(base); filepath.IsAbs(d) {
		return filepath.Join(d, under, "mcpsh"), nil
	}
	return "", fmt.Errorf("neither %s nor %s is an absolute path", xdg, base)
}
