package policy

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStandardLibraryOnly keeps policy pure: its rules must be readable and
// testable without a server, a terminal or the SDK. Test files are held to it too.
func TestStandardLibraryOnly(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files found: %v", err)
	}
	banned := []string{"os", "io", "net", "syscall", "os/exec", "io/fs", "io/ioutil", "log", "log/slog", "time"}
	for _, f := range files {
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			first := strings.Split(p, "/")[0]
			// An example (package policy_test) imports policy as a program would.
			if strings.Contains(first, ".") && !(p == "github.com/mcpsh/mcpsh/policy" && strings.HasSuffix(f, "_test.go")) {
				t.Errorf("%s imports %s: policy may use the standard library only", f, p)
			}
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			for _, b := range banned {
				if p == b {
					t.Errorf("%s imports %s: policy does no I/O", f, p)
				}
			}
		}
	}
	_ = os.Getenv // test files may do I/O (golden files); the package may not
}
