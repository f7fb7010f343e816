package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The binary built from this checkout names its commit, as Go stamped it.
func TestVersionNamesTheCheckoutsCommit(t *testing.T) {
	t.Parallel()
	if os.Getenv("MCPSH_E2E_BIN") != "" {
		t.Skip("MCPSH_E2E_BIN names a binary built elsewhere")
	}
	head, err := exec.Command("git", "-C", repoRoot, "rev-parse", "HEAD").Output()
	if err != nil {
		msg := "not a git checkout, or no git: " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	commit := strings.TrimSpace(string(head))
	r := mcpsh(t, opts{}, "--version")
	wantCode(t, r, 0)
	lines := strings.Split(r.out, "\n")
	if !strings.HasPrefix(lines[0], "mcpsh ") || len(lines) < 3 {
		t.Fatalf("--version:\n%s", r.out)
	}
	contains(t, "--version", r.out, "commit "+commit, "committed ", "go1.")
	// From a checkout Go derives a pseudo-version from the commit (+dirty when
	// the tree has changes), or says (devel).
	if v := strings.TrimPrefix(lines[0], "mcpsh "); v != "(devel)" && !strings.Contains(v, commit[:12]) {
		t.Errorf("version %q names neither (devel) nor commit %s", v, commit[:12])
	}
}

// What goreleaser sets at link time wins over what Go recorded.
func TestVersionFromLinkerFlags(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "mcpsh")
	const pkg = "github.com/mcpsh/mcpsh/internal/cli."
	cmd := exec.Command("go", "build", "-o", bin, "-ldflags",
		"-X "+pkg+"Version=v9.8.7 -X "+pkg+"Commit=0123456789abcdef -X "+pkg+"Date=2030-01-02T03:04:05Z", "./cmd/mcpsh")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "mcpsh v9.8.7\ncommit 0123456789abcdef (built 2030-01-02T03:04:05Z)\n"
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("--version:\n%s\nwant it to start:\n%s", out, want)
	}
}
