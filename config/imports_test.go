package config

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestImports keeps go-toml to Codex's config.toml (hosts_codex.go): every
// other host writes JSON, read by config's own walker. What config may import
// at all is internal/archtest's to check, with the rest of the dependency rule.
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
			if strings.HasPrefix(p, "github.com/pelletier/go-toml/") && f != "hosts_codex.go" {
				t.Errorf("%s imports %s: go-toml reads Codex's file only, in hosts_codex.go", f, p)
			}
		}
	}
}
