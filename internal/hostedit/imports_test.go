package hostedit

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestImports keeps hostedit to the standard library and config, with
// go-toml's unstable parser for Codex's file in toml.go and tomledit.go and go-udiff for
// the diff in diff.go: it edits files and must not reach the client, the UI
// or the network.
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
			case p == "github.com/mcpsh/mcpsh/config":
			case p == "github.com/pelletier/go-toml/v2/unstable" && (f == "toml.go" || f == "tomledit.go"):
			case p == "github.com/aymanbagabas/go-udiff" && f == "diff.go":
			default:
				t.Errorf("%s imports %s: hostedit may use the standard library and config only (go-toml's unstable parser in toml.go and tomledit.go, go-udiff in diff.go)", f, p)
			}
		}
	}
}
