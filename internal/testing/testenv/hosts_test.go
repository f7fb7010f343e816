package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every placeholder is filled in, with the repository and the demo command
// line quoted as JSON, and the repository is one (it has .git).
func TestInstallHostsFillsPlaceholders(t *testing.T) {
	h := InstallHosts(t, `/opt/my "demo"`, "serve-demo", "--x")
	if fi, err := os.Stat(filepath.Join(h.Repo, ".git")); err != nil || !fi.IsDir() {
		t.Errorf("no %s/.git: %v", h.Repo, err)
	}
	var all strings.Builder
	err := filepath.WalkDir(h.Root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if strings.Contains(string(b), "@REPO@") || strings.Contains(string(b), "@DEMO") {
			t.Errorf("%s keeps a placeholder", path)
		}
		all.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"/opt/my \"demo\""`, `["serve-demo","--x"]`} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no file holds %s", want)
		}
	}
	if _, err := os.Stat(h.Own); err != nil {
		t.Errorf("mcpsh's own file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(h.AppData, "Claude", "claude_desktop_config.json")); err != nil {
		t.Errorf("the desktop settings are not under AppData: %v", err)
	}
}
