package hostedit

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestImports keeps go-toml's unstable parser to toml.go and tomledit.go, and
// go-udiff to diff.go: the rest of hostedit is splices of bytes. What hostedit
// may import at all is internal/archtest's to check, with the rest of the
// dependency rule.
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
			case strings.HasPrefix(p, "github.com/pelletier/go-toml/") && f != "toml.go" && f != "tomledit.go":
				t.Errorf("%s imports %s: go-toml's parser belongs in toml.go and tomledit.go", f, p)
			case strings.HasPrefix(p, "github.com/aymanbagabas/go-udiff") && f != "diff.go":
				t.Errorf("%s imports %s: go-udiff belongs in diff.go", f, p)
			}
		}
	}
}
