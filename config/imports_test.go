package config

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestImports keeps config to the standard library, policy and internal/redact
// (go-cmp in tests): it reads files and must not pull in the SDK, the UI or the
// client. redact is allowed because config decides what of a server may be
// shown and what must never be (ArgsShown, URLShown, Secrets), and redact is
// itself standard library only (its own imports test says so). go-toml reads
// Codex's config.toml (hosts_codex.go), and nothing else may use it.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files found: %v", err)
	}
	for _, f := range files {
		af, err := goparser.ParseFile(token.NewFileSet(), f, nil, goparser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			switch {
			case !strings.Contains(strings.Split(p, "/")[0], "."):
			case p == "github.com/mcpsh/mcpsh/policy", p == "github.com/mcpsh/mcpsh/internal/redact", p == "github.com/mcpsh/mcpsh/internal/paths":
			case p == "github.com/pelletier/go-toml/v2" && f == "hosts_codex.go":
			case strings.HasSuffix(f, "_test.go") && strings.HasPrefix(p, "github.com/google/go-cmp/"):
			default:
				t.Errorf("%s imports %s: config may use the standard library, policy and internal/redact only (and go-toml for Codex)", f, p)
			}
		}
	}
}
