package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkDiscover is what every command that names a server pays for
// reading the other hosts' files: nothing to find (a few stat calls), the
// fixture of every host, and the fixture with a ~/.claude.json grown to the
// size a long-used Claude Code leaves (500 projects, about 2 MB).
func BenchmarkDiscover(b *testing.B) {
	b.Run("nothing", func(b *testing.B) {
		home, repo := b.TempDir(), b.TempDir()
		os.Mkdir(filepath.Join(repo, ".git"), 0o755)
		cwd := filepath.Join(repo, "a", "b")
		os.MkdirAll(cwd, 0o755)
		env := envOf(map[string]string{"HOME": home})
		for b.Loop() {
			Discover(Discovery{Getenv: env, Dir: cwd, GOOS: "linux"})
		}
	})
	b.Run("every-host", func(b *testing.B) {
		h := installHosts(b)
		own, _ := Load(h.own, envOf(h.env))
		for b.Loop() {
			Discover(Discovery{Own: own, Getenv: envOf(h.env), Dir: h.cwd, GOOS: "linux"})
		}
	})
	b.Run("big-claude-json", func(b *testing.B) {
		h := installHosts(b)
		var sb strings.Builder
		sb.WriteString(`{"mcpServers": {"x": {"command": "x"}}, "projects": {`)
		for i := range 500 {
			fmt.Fprintf(&sb, `"/home/u/src/project-%d": {"allowedTools": [], "history": [%s], "mcpServers": {}},`, i,
				strings.Repeat(`{"display": "a prompt someone typed into Claude Code, long enough", "pastedContents": {}},`, 40)+`{}`)
		}
		sb.WriteString(`"/last": {}}}`)
		os.WriteFile(filepath.Join(h.home, ".claude.json"), []byte(sb.String()), 0o644)
		b.SetBytes(int64(sb.Len()))
		own, _ := Load(h.own, envOf(h.env))
		for b.Loop() {
			Discover(Discovery{Own: own, Getenv: envOf(h.env), Dir: h.cwd, GOOS: "linux"})
		}
	})
}
