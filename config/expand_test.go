package config

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	env := envOf(map[string]string{"HOME": "/home/u", "EMPTY": "", "A": "x"})
	tests := []struct {
		in, want, err string
	}{
		{in: "plain", want: "plain"},
		{in: "${HOME}/tmp", want: "/home/u/tmp"},
		{in: "${env:HOME}/tmp", want: "/home/u/tmp"},
		{in: "${A}${A}-${A}", want: "xx-x"},
		{in: "${EMPTY}", want: ""},
		{in: "${MISSING:-fallback}", want: "fallback"},
		{in: "${EMPTY:-fallback}", want: "fallback"},
		{in: "${A:-fallback}", want: "x"},
		{in: "${env:MISSING:-d}", want: "d"},
		{in: "${MISSING:-}", want: ""},
		{in: "${MISSING:-a:b/c}", want: "a:b/c"},
		{in: "$$HOME $ $A a$", want: "$$HOME $ $A a$"},
		{in: "$${A}", want: "$x"},
		{in: "${HOME", want: "${HOME"},
		{in: "${HOME}${", want: "/home/u${"},
		{in: "${MISSING}", err: "${MISSING} is not set"},
		{in: "ok ${A} then ${env:GONE}", err: "${env:GONE} is not set"},
		{in: "${}", err: "${} names no variable"},
		{in: "${input:apiKey}", err: "${input:apiKey} asks VS Code to prompt for a value, which mcpsh does not do; use an environment variable instead"},
		{in: "${workspaceFolder}/src", err: "${workspaceFolder} is a VS Code variable, which mcpsh does not expand; use an environment variable instead"},
		{in: "${workspaceFolder:api}", err: "${workspaceFolder:api} is a VS Code variable, which mcpsh does not expand; use an environment variable instead"},
		{in: "${config:editor.tabSize}", err: "${config:editor.tabSize} is a VS Code variable, which mcpsh does not expand; use an environment variable instead"},
	}
	for _, tt := range tests {
		got, err := expand(tt.in, env)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("expand(%q) error = %v, want %s", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestUnsetVariableSpoilsOneServer checks that a reference that cannot be expanded
// leaves the file loadable and puts the problem on the one server that has it.
func TestUnsetVariableSpoilsOneServer(t *testing.T) {
	text := `{
	  "servers": {
	    "remote": { "url": "https://h/mcp", "headers": { "Accept": "*/*", "Authorization": "Bearer ${TOKEN}" } },
	    "ws": { "command": "node", "args": ["${workspaceFolder}/server.js"], "env": { "A": "${input:a}" } },
	    "host": { "url": "${HOST}/mcp" },
	    "cmd": { "command": "${CMD}", "cwd": "${DIR}" },
	    "fine": { "command": "node", "args": ["${HOME}"] }
	  }
	}`
	tests := []struct {
		env  map[string]string
		want map[string]string // server name → Validate error; "" when usable
	}{
		{map[string]string{"HOME": "/h"}, map[string]string{
			"remote": "config.json: servers.remote.headers.Authorization: ${TOKEN} is not set",
			"ws":     "config.json: servers.ws.args[0]: ${workspaceFolder} is a VS Code variable, which mcpsh does not expand; use an environment variable instead",
			"host":   "config.json: servers.host.url: ${HOST} is not set",
			"cmd":    "config.json: servers.cmd.command: ${CMD} is not set",
			"fine":   "",
		}},
		{map[string]string{"HOME": "/h", "TOKEN": "t", "HOST": "example.com", "CMD": "", "DIR": "/d"}, map[string]string{
			"remote": "",
			"ws":     "config.json: servers.ws.args[0]: ${workspaceFolder} is a VS Code variable, which mcpsh does not expand; use an environment variable instead",
			"host":   `config.json: servers.host.url: "${HOST}/mcp" does not expand to an absolute http or https URL`,
			"cmd":    `config.json: servers.cmd.command: "${CMD}" expands to nothing`,
			"fine":   "",
		}},
	}
	for _, tt := range tests {
		f, err := Parse("config.json", []byte(text), envOf(tt.env))
		if err != nil {
			t.Fatalf("env %v: the file should load: %v", tt.env, err)
		}
		got := map[string]string{}
		for _, s := range f.Servers {
			got[s.Name] = ""
			if err := s.Validate(); err != nil {
				got[s.Name] = err.Error()
				var ce *Error
				if !errors.As(err, &ce) || ce.Key == "" {
					t.Errorf("%s: want an *Error with a key, got %#v", s.Name, err)
				}
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("env %v: Validate errors (-want +got):\n%s", tt.env, diff)
		}
	}
}

// TestUnexpandedFieldsKeepTheirText checks that a field whose expansion failed keeps
// what the file says, so it can be shown, while the others are expanded.
func TestUnexpandedFieldsKeepTheirText(t *testing.T) {
	f, err := Parse("c.json", []byte(`{"mcpServers": {"r": {"url": "https://h/${HOME}", "headers": {"A": "${TOKEN}"}}}}`),
		envOf(map[string]string{"HOME": "u"}))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Servers[0]
	if s.URL != "https://h/u" || s.Headers["A"] != "${TOKEN}" {
		t.Errorf("URL = %q, Headers = %v", s.URL, s.Headers)
	}
}
