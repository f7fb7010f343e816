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

// --host picks the calls mcpsh proxy made for a host, by the name the host
// gave; calls made at mcpsh's own prompt have no host.
func TestFilterHost(t *testing.T) {
	own := Entry{Outcome: client.Outcome{Tool: "a"}}
	cursor := Entry{Outcome: client.Outcome{Tool: "b", Proxy: true, Host: &client.Peer{Name: "cursor-vscode", Version: "1.2"}}}
	claude := Entry{Outcome: client.Outcome{Tool: "c", Proxy: true, Host: &client.Peer{Name: "claude-code", Version: "2.1"}}}
	for glob, want := range map[string][]bool{"": {true, true, true}, "cursor*": {false, true, false}, "*": {false, true, true}} {
		for i, e := range []Entry{own, cursor, claude} {
			if got := (Filter{Host: glob}).Match(e); got != want[i] {
				t.Errorf("--host %q on %s: %v, want %v", glob, e.Tool, got, want[i])
			}
		}
	}
	if ValidHost("[") == nil {
		t.Error("ValidHost([) accepted it")
	}
}
