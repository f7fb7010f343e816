package policy

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoIO keeps policy's decisions free of I/O, time and logging: its rules
// must be readable and testable without a server, a terminal or a clock. That
// it uses the standard library only, tests included, is
// internal/archtest's to check, with the rest of the dependency rule.
func TestNoIO(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files found: %v", err)
	}
	banned := []string{"os", "io", "net", "syscall", "log", "time"} // and what lies under them
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue // test files may do I/O (golden files); the package may not
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			for _, b := range banned {
				if p == b || strings.HasPrefix(p, b+"/") {
					t.Errorf("%s imports %s: policy does no I/O", f, p)
				}
			}
		}
	}
}
