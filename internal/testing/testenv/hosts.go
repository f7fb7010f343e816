package testenv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Hosts is config/testdata/hosts installed in a temporary folder: a HOME and
// a repository holding the config of every host mcpsh reads, each written
// after the example in that host's documentation (the fixture's README says
// what each server is for).
type Hosts struct {
	Root    string // the temporary folder, symlinks resolved
	Home    string // HOME
	AppData string // where desktop applications keep their settings on this platform
	Repo    string // a repository (it has .git), with project config
	Cwd     string // a folder deep in Repo, to run mcpsh in
	Own     string // mcpsh's own config file (MCPSH_CONFIG)
}

// InstallHosts copies the fixture into a temporary folder, filling in its
// placeholders with the repository's path and demo, the command line that
// serves mcpsh's demo server (a test binary that doubles as one, or
// `mcpsh serve-demo`).
func InstallHosts(t testing.TB, demo ...string) *Hosts {
	t.Helper()
	if len(demo) == 0 {
		t.Fatal("InstallHosts: no demo server command")
	}
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r // macOS's /var is /private/var, which os.Getwd and the binary report
	}
	h := &Hosts{Root: root, Home: filepath.Join(root, "home"), Repo: filepath.Join(root, "repo"), Own: filepath.Join(root, "own", "config.json")}
	h.Cwd = filepath.Join(h.Repo, "sub", "dir")
	h.AppData = filepath.Join(h.Home, ".config")
	switch runtime.GOOS {
	case "darwin":
		h.AppData = filepath.Join(h.Home, "Library", "Application Support")
	case "windows":
		h.AppData = filepath.Join(root, "AppData", "Roaming")
	}
	q := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	repl := strings.NewReplacer("@REPO@", q(h.Repo), "@DEMO@", q(demo[0]), "@DEMOARGS@", q(append([]string{}, demo[1:]...)))
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "..", "config", "testdata", "hosts")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "README.md" {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		dst := filepath.Join(root, rel)
		if first, rest, _ := strings.Cut(filepath.ToSlash(rel), "/"); first == "appdata" {
			dst = filepath.Join(h.AppData, filepath.FromSlash(rest))
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, []byte(repl.Replace(string(data))), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(h.Repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return h
}

// Env is what makes mcpsh read the tree as the user's: HOME and the
// platform's settings folders, mcpsh's own file, and the variables the
// fixture's servers refer to (one of them a secret that must not show).
func (h *Hosts) Env() map[string]string {
	return map[string]string{
		"HOME": h.Home, "USERPROFILE": h.Home, "APPDATA": h.AppData, "XDG_CONFIG_HOME": h.AppData,
		"MCPSH_CONFIG": h.Own,
		"GITHUB_TOKEN": "ghp_s3cretgithubtoken", "DB_CONNECTION_STRING": "postgres://u:pw@db/x",
	}
}
