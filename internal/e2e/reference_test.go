package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The classes the reference servers' hints imply (see mcp-client-facts.md §4).
func TestFilesystemServer(t *testing.T) {
	t.Parallel()
	bin := npmBin(t, "mcp-server-filesystem")
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello from disk\n"), 0o600)
	srv := []string{"--", bin, root}

	r := mcpsh(t, opts{}, append([]string{"tools", "--json"}, srv...)...)
	wantCode(t, r, 0)
	by := toolsByName(t, r.out)
	want := map[string][3]any{ // class, idempotent, openWorld
		"read_text_file":   {"read-only", true, false},
		"list_directory":   {"read-only", true, false},
		"write_file":       {"destructive", true, false},
		"edit_file":        {"destructive", false, false},
		"move_file":        {"destructive", false, false},
		"create_directory": {"write", true, false},
	}
	for name, w := range want {
		tool := by[name]
		if tool == nil || tool["class"] != w[0] || tool["idempotent"] != w[1] || tool["openWorld"] != w[2] {
			t.Errorf("%s: %v, want class %v idempotent %v openWorld %v", name, tool, w[0], w[1], w[2])
		}
	}
	if _, sent := by["read_text_file"]["declared"].(map[string]any)["destructiveHint"]; sent {
		t.Error("read_text_file: declared invents a destructiveHint")
	}

	target := filepath.Join(root, "new.txt")
	r = mcpsh(t, opts{}, append([]string{"call", "write_file", "path=" + target, "content=written"}, srv...)...)
	wantCode(t, r, 4)
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatal("a refused write_file wrote the file")
	}
	r = mcpsh(t, opts{}, append([]string{"call", "write_file", "path=" + target, "content=written", "--yes"}, srv...)...)
	wantCode(t, r, 0)
	if b, _ := os.ReadFile(target); string(b) != "written" {
		t.Fatalf("file holds %q", b)
	}
	r = mcpsh(t, opts{}, append([]string{"call", "read_text_file"}, srv...)...)
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, `argument "path": required but missing`)
	r = mcpsh(t, opts{}, append([]string{"call", "read_text_file", "path=/etc/hostname"}, srv...)...)
	wantCode(t, r, 3)

	script := "create_directory path=" + filepath.Join(root, "sub") + "\n" +
		"write_file path=" + filepath.Join(root, "sub", "x.txt") + " content=script\n" +
		"read_text_file path=" + filepath.Join(root, "hello.txt") + "\n"
	r = mcpsh(t, opts{stdin: script}, append([]string{"run", "--json"}, srv...)...)
	wantCode(t, r, 4)
	statuses := recordStatuses(t, r.out)
	if strings.Join(statuses, ",") != "ok,refused,ok" {
		t.Errorf("statuses %v", statuses)
	}
	if _, err := os.Stat(filepath.Join(root, "sub", "x.txt")); !os.IsNotExist(err) {
		t.Error("the refused write in the script happened")
	}
	contains(t, "run output", r.out, "hello from disk")
}

func recordStatuses(t *testing.T, out string) []string {
	t.Helper()
	var s []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var o struct{ Status string }
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		s = append(s, o.Status)
	}
	return s
}

func TestMemoryServer(t *testing.T) {
	t.Parallel()
	bin := npmBin(t, "mcp-server-memory")
	env := []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")}
	srv := []string{"--", bin}
	r := mcpsh(t, opts{env: env}, append([]string{"tools"}, srv...)...)
	wantCode(t, r, 0)
	contains(t, "tools", r.out, "create_entities\twrite", "add_observations\twrite",
		"delete_entities\tdestructive\tDelete Entities\tidempotent", "read_graph\tread-only")

	script := `create_entities {"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]}
delete_entities {"entityNames":["Ada"]}
read_graph
`
	r = mcpsh(t, opts{env: env, stdin: script}, append([]string{"run", "--json"}, srv...)...)
	wantCode(t, r, 4)
	if got := strings.Join(recordStatuses(t, r.out), ","); got != "ok,refused,ok" {
		t.Errorf("statuses %s", got)
	}
	contains(t, "read_graph still has Ada", r.out, "wrote the first program")
	r = mcpsh(t, opts{env: env, stdin: "delete_entities entityNames=Ada\nread_graph\n"}, append([]string{"run", "--yes"}, srv...)...)
	wantCode(t, r, 0)
	if strings.Contains(r.out, "wrote the first program") {
		t.Error("--yes did not delete")
	}
}

func TestEverythingServer(t *testing.T) {
	t.Parallel()
	bin := npmBin(t, "mcp-server-everything")
	srv := []string{"--", bin}
	r := mcpsh(t, opts{}, append([]string{"tools", "--json"}, srv...)...)
	wantCode(t, r, 0)
	by := toolsByName(t, r.out)
	for name, class := range map[string]string{"echo": "read-only", "get-sum": "read-only", "toggle-simulated-logging": "write", "gzip-file-as-resource": "write"} {
		if by[name]["class"] != class {
			t.Errorf("%s class %v, want %s", name, by[name]["class"], class)
		}
	}
	if by["gzip-file-as-resource"]["openWorld"] != true {
		t.Error("gzip-file-as-resource should be open-world")
	}
	r = mcpsh(t, opts{}, append([]string{"call", "get-sum", "a=2", "b=3"}, srv...)...)
	wantCode(t, r, 0)
	contains(t, "get-sum", r.out, "5")
	r = mcpsh(t, opts{}, append([]string{"call", "get-tiny-image"}, srv...)...)
	wantCode(t, r, 0)
	contains(t, "image summary", r.out, "[image image/png,")
	r = mcpsh(t, opts{}, append([]string{"call", "get-structured-content", "location=Chicago", "--json"}, srv...)...)
	wantCode(t, r, 0)
	contains(t, "structured", r.out, `"structuredContent": {`)
	if strings.Contains(r.out, "outputSchemaError") {
		t.Errorf("the reference server's structured content was flagged:\n%s", r.out)
	}
	r = mcpsh(t, opts{}, append([]string{"call", "trigger-long-running-operation", "duration=1", "steps=3"}, srv...)...)
	wantCode(t, r, 0)
	r = mcpsh(t, opts{}, append([]string{"call", "get-structured-content", "location=Paris"}, srv...)...)
	wantCode(t, r, 2)
	contains(t, "enum error", r.errOut, `argument "location": enum`)
}
