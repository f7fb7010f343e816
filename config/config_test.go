package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestLookup(t *testing.T) {
	f, err := Parse("c.json", []byte(`{"mcpServers": {"b": {"command": "b"}, "a": {"url": "https://h/"}, "c": {"command": "${NOPE}"}}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := f.Lookup("a"); err != nil || s.Name != "a" || s.Transport != HTTP {
		t.Errorf("Lookup(a) = %+v, %v", s, err)
	}
	// A server with a problem comes back, with its problem.
	s, err := f.Lookup("c")
	if s == nil || s.Name != "c" || err == nil || err.Error() != "c.json: mcpServers.c.command: ${NOPE} is not set" {
		t.Errorf("Lookup(c) = %+v, %v", s, err)
	}

	tests := []struct {
		name string
		f    *File
		want string
	}{
		{"known names listed", f, `c.json: unknown server "x" (known: a, b, c)`},
		{"empty file", &File{Path: "c.json"}, `c.json: unknown server "x" (no servers are configured)`},
		{"no file at all", nil, `unknown server "x" (no servers are configured)`},
		{"a file not there yet is not blamed", &File{Path: "c.json", Missing: true}, `unknown server "x": no servers are configured (mcpsh's config file c.json does not exist yet)`},
	}
	for _, tt := range tests {
		s, err := tt.f.Lookup("x")
		if s != nil || err == nil || err.Error() != tt.want {
			t.Errorf("%s: Lookup(x) = %v, %v; want %s", tt.name, s, err, tt.want)
		}
		if !errors.As(err, new(*Error)) {
			t.Errorf("%s: want an *Error, got %#v", tt.name, err)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(vscodeFile), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, testEnv)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != path || len(f.Servers) != 2 || f.Servers[0].Name != "docs" {
		t.Errorf("Load = %+v", f)
	}

	missing := filepath.Join(dir, "gone.json")
	_, err = Load(missing, nil)
	if err == nil || err.Error() != missing+": no such file or directory" {
		t.Errorf("Load(missing) error = %v", err)
	}
}
