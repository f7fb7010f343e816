package paths

import (
	"path/filepath"
	"testing"
)

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestDirs(t *testing.T) {
	// Absolute on the platform running the test, whichever branch it checks.
	xdg, base := t.TempDir(), t.TempDir()
	tests := []struct {
		name, goos string
		dir        func(string, func(string) (string, bool)) (string, error)
		env        map[string]string
		want, err  string
	}{
		{"config: XDG wins on Linux", "linux", configDir, map[string]string{"XDG_CONFIG_HOME": xdg, "HOME": base}, filepath.Join(xdg, "mcpsh"), ""},
		{"config: HOME on Linux", "linux", configDir, map[string]string{"HOME": base, "APPDATA": xdg}, filepath.Join(base, ".config", "mcpsh"), ""},
		{"config: HOME on macOS", "darwin", configDir, map[string]string{"HOME": base}, filepath.Join(base, ".config", "mcpsh"), ""},
		{"config: XDG wins on Windows", "windows", configDir, map[string]string{"XDG_CONFIG_HOME": xdg, "APPDATA": base}, filepath.Join(xdg, "mcpsh"), ""},
		{"config: APPDATA on Windows", "windows", configDir, map[string]string{"APPDATA": base, "HOME": xdg}, filepath.Join(base, "mcpsh"), ""},
		{"config: relative XDG ignored", "linux", configDir, map[string]string{"XDG_CONFIG_HOME": "cfg", "HOME": base}, filepath.Join(base, ".config", "mcpsh"), ""},
		{"config: nothing absolute", "linux", configDir, map[string]string{"HOME": "."}, "", "neither XDG_CONFIG_HOME nor HOME is an absolute path"},
		{"config: nothing on Windows", "windows", configDir, nil, "", "neither XDG_CONFIG_HOME nor APPDATA is an absolute path"},
		{"state: XDG wins on Linux", "linux", stateDir, map[string]string{"XDG_STATE_HOME": xdg, "HOME": base}, filepath.Join(xdg, "mcpsh"), ""},
		{"state: HOME on macOS", "darwin", stateDir, map[string]string{"HOME": base}, filepath.Join(base, ".local", "state", "mcpsh"), ""},
		{"state: XDG wins on Windows", "windows", stateDir, map[string]string{"XDG_STATE_HOME": xdg, "LOCALAPPDATA": base}, filepath.Join(xdg, "mcpsh"), ""},
		{"state: LOCALAPPDATA on Windows", "windows", stateDir, map[string]string{"LOCALAPPDATA": base, "APPDATA": xdg, "HOME": xdg}, filepath.Join(base, "mcpsh"), ""},
		{"state: relative LOCALAPPDATA", "windows", stateDir, map[string]string{"LOCALAPPDATA": "here", "HOME": base}, "", "neither XDG_STATE_HOME nor LOCALAPPDATA is an absolute path"},
		{"state: nothing absolute", "linux", stateDir, map[string]string{"XDG_STATE_HOME": "st"}, "", "neither XDG_STATE_HOME nor HOME is an absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.dir(tt.goos, envOf(tt.env))
			if got != tt.want {
				t.Errorf("dir = %q, want %q", got, tt.want)
			}
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Errorf("err = %v, want %q", err, tt.err)
			}
		})
	}
}

func TestNilGetenv(t *testing.T) {
	if d, err := ConfigDir(nil); err == nil {
		t.Errorf("ConfigDir(nil) = %q, want an error", d)
	}
}

// The runtime folder is $XDG_RUNTIME_DIR's when it is absolute, else the
// state folder.
func TestRuntimeDir(t *testing.T) {
	run, state := t.TempDir(), t.TempDir()
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_RUNTIME_DIR": run, "XDG_STATE_HOME": state}, filepath.Join(run, "mcpsh")},
		{map[string]string{"XDG_RUNTIME_DIR": "rel", "XDG_STATE_HOME": state}, filepath.Join(state, "mcpsh")},
		{map[string]string{"XDG_STATE_HOME": state}, filepath.Join(state, "mcpsh")},
	} {
		if got, err := RuntimeDir(envOf(tt.env)); err != nil || got != tt.want {
			t.Errorf("%v: %q, %v; want %q", tt.env, got, err, tt.want)
		}
	}
}
