package sessionlog

import (
	"testing"

	"github.com/mcpsh/mcpsh/client"
)

// TestFilterToolGlob checks that --tool matches as policy rules do: tool names
// are not paths, so a star crosses "/" ("fs/delete_file").
func TestFilterToolGlob(t *testing.T) {
	tests := []struct {
		glob, tool string
		want       bool
	}{
		{"*", "fs/delete_file", true},
		{"fs*", "fs/delete_file", true},
		{"*delete*", "fs/delete_file", true},
		{"fs/*", "fs/delete_file", true},
		{"delete_*", "fs/delete_file", false},
		{"get_?", "get_x", true},
		{"[!a]*", "add", false},
	}
	for _, tt := range tests {
		e := Entry{Outcome: client.Outcome{Tool: tt.tool}}
		if got := (Filter{Tool: tt.glob}).Match(e); got != tt.want {
			t.Errorf("--tool %q on %q: %v, want %v", tt.glob, tt.tool, got, tt.want)
		}
	}
	for _, bad := range []string{"[", `a\`, "[]"} {
		if ValidTool(bad) == nil {
			t.Errorf("ValidTool(%q) accepted it", bad)
		}
	}
	if err := ValidTool("fs/*"); err != nil {
		t.Errorf("ValidTool(fs/*): %v", err)
	}
}
