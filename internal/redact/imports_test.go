package redact

import (
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestImports keeps redact to the standard library: config, sessionlog, client
// and the CLI all use it, so it must not pull any of them, or anything else, in.
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
			if p := strings.Trim(imp.Path.Value, `"`); strings.Contains(strings.Split(p, "/")[0], ".") {
				t.Errorf("%s imports %s: redact may use the standard library only", f, p)
			}
		}
	}
}
