package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile creates path, and its folders, holding a one-server config.
func writeFile(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"x": {"command": "x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	explicit := writeFile(t, filepath.Join(dir, "explicit.json"))
	fromEnv := writeFile(t, filepath.Join(dir, "env.json"))
	xdg := filepath.Join(dir, "xdg")
	xdgFile := writeFile(t, filepath.Join(xdg, "mcpsh", "config.json"))
	home := filepath.Join(dir, "home")
	homeFile := writeFile(t, filepath.Join(home, ".config", "mcpsh", "config.json"))
	empty := filepath.Join(dir, "empty") // a home with no config
	missing := filepath.Join(dir, "missing.json")
	if err := os.MkdirAll(filepath.Join(dir, "dirhome", ".config", "mcpsh", "config.json"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		explicit string
		env      map[string]string
		want     string
		found    bool
		err      string
	}{
		{"--config wins", explicit, map[string]string{"MCPSH_CONFIG": fromEnv, "XDG_CONFIG_HOME": xdg, "HOME": home}, explicit, true, ""},
		{"--config must exist", missing, map[string]string{"MCPSH_CONFIG": fromEnv, "HOME": home}, missing, false, missing + ": no such file (named by --config)"},
		{"--config may not be a folder", dir, nil, dir, false, dir + ": is a directory, not a file (named by --config)"},
		{"$MCPSH_CONFIG next", "", map[string]string{"MCPSH_CONFIG": fromEnv, "XDG_CONFIG_HOME": xdg, "HOME": home}, fromEnv, true, ""},
		{"$MCPSH_CONFIG must exist", "", map[string]string{"MCPSH_CONFIG": missing, "HOME": home}, missing, false, missing + ": no such file (named by $MCPSH_CONFIG)"},
		{"empty $MCPSH_CONFIG is unset", "", map[string]string{"MCPSH_CONFIG": "", "HOME": home}, homeFile, true, ""},
		{"$XDG_CONFIG_HOME next", "", map[string]string{"XDG_CONFIG_HOME": xdg, "HOME": home}, xdgFile, true, ""},
		{"$HOME/.config by default", "", map[string]string{"HOME": home}, homeFile, true, ""},
		{"relative $XDG_CONFIG_HOME is ignored", "", map[string]string{"XDG_CONFIG_HOME": "xdg", "HOME": home}, homeFile, true, ""},
		{"missing default is no error", "", map[string]string{"HOME": empty}, filepath.Join(empty, ".config", "mcpsh", "config.json"), false, ""},
		{"default may not be a folder", "", map[string]string{"HOME": filepath.Join(dir, "dirhome")},
			filepath.Join(dir, "dirhome", ".config", "mcpsh", "config.json"), false, "is a directory, not a file"},
		{"no home", "", nil, "", false, ""},
		{"relative home", "", map[string]string{"HOME": "."}, "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, found, err := Find(tt.explicit, envOf(tt.env))
			if path != tt.want || found != tt.found {
				t.Errorf("Find = %q, %v; want %q, %v", path, found, tt.want, tt.found)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error = %v, want %q", err, tt.err)
			case err != nil && !errors.As(err, new(*Error)):
				t.Errorf("want an *Error, got %#v", err)
			}
		})
	}
}

func TestFindMissingIsNotExist(t *testing.T) {
	_, _, err := Find(filepath.Join(t.TempDir(), "nope.json"), nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error = %v, want one that is fs.ErrNotExist", err)
	}
}

// TestFindIgnoresWorkingDirectory proves that files a cloned repository could carry
// are never picked up unless the user names them.
func TestFindIgnoresWorkingDirectory(t *testing.T) {
	repo := t.TempDir()
	for _, name := range []string{".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json", "mcp.json", "config.json",
		"mcpsh/config.json", ".config/mcpsh/config.json", ".mcpsh.json"} {
		writeFile(t, filepath.Join(repo, name))
	}
	t.Chdir(repo)
	for _, env := range []map[string]string{
		{},
		{"HOME": ""},
		{"HOME": "."},
		{"XDG_CONFIG_HOME": "."},
		{"XDG_CONFIG_HOME": ".config", "HOME": ".."},
		{"MCPSH_CONFIG": ""},
	} {
		path, found, err := Find("", envOf(env))
		if found || path != "" || err != nil {
			t.Errorf("env %v: Find = %q, %v, %v; want nothing", env, path, found, err)
		}
	}
	// Named explicitly, the same file is used.
	path, found, err := Find(".mcp.json", nil)
	if path != ".mcp.json" || !found || err != nil {
		t.Errorf("Find(.mcp.json) = %q, %v, %v", path, found, err)
	}
}
