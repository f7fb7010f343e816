package testenv

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// testOnly are the packages that only tests (and benchmarks) import: they
// hold fakes, fixtures and helpers that have no place in what users run.
var testOnly = []string{
	"github.com/mcpsh/mcpsh/internal/testenv",
	"github.com/mcpsh/mcpsh/internal/oauthfake",
	"github.com/mcpsh/mcpsh/internal/benchcpu",
	"github.com/mcpsh/mcpsh/ui/internal/uitest",
	"github.com/mcpsh/mcpsh/internal/tmuxwidth",
}

// TestOnlyTestsImport fails if mcpsh's binary depends on a test-only package:
// go list -deps leaves out test files, so anything it lists is linked in.
func TestOnlyTestsImport(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/mcpsh/mcpsh/cmd/mcpsh").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/mcpsh/mcpsh/internal/cli") {
		t.Fatalf("go list -deps ./cmd/mcpsh does not list internal/cli; the check would pass blind:\n%s", out)
	}
	for _, p := range testOnly {
		if slices.Contains(deps, p) {
			t.Errorf("mcpsh's binary depends on %s, which only tests may import (go list -deps ./cmd/mcpsh)", p)
		}
	}
}
