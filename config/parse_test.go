package config

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpsh/mcpsh/policy"
)

// envOf is a getenv over a fixed set of variables.
func envOf(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

var testEnv = envOf(map[string]string{"HOME": "/home/u", "TOKEN": "s3cret", "EMPTY": ""})

// claudeFile is the mcpServers shape of Claude Desktop, Cursor and Claude Code, with
// mcpsh's keys and other clients' keys mixed in.
const claudeFile = `{ "mcpServers": {
  "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/tmp"],
          "env": { "LOG": "1" }, "cwd": "/tmp",
          "trust": "untrusted",
          "policy": { "allow": ["read_*"], "confirm": ["write_*"], "deny": ["delete_*"] },
          "timeout": "30s", "retries": 3, "retryMax": "20s",
          "disabled": false, "autoApprove": ["x"], "alwaysAllow": [], "envFile": ".env", "description": 7 },
  "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${TOKEN}" } },
  "legacy": { "type": "sse", "url": "http://127.0.0.1:9000/sse" }
} }`

// vscodeFile is VS Code's .vscode/mcp.json: JSONC, "servers", "inputs".
const vscodeFile = `// MCP servers for this workspace
{
  "inputs": [ { "type": "promptString", "id": "key", "password": true }, ],
  "servers": {
    /* the docs server, over HTTP */
    "docs": {
      "type": "streamable-http",
      "url": "https://docs.example.com/mcp", // a URL keeps its //
      "timeout": 1.5,
    },
    "git": { "type": "stdio", "command": "uvx", "args": ["mcp-server-git",], "env": { "HOME": "${env:HOME}" } },
  },
}
`

func TestParseFormats(t *testing.T) {
	fs := &Server{
		Name: "fs", Transport: Stdio, Key: "mcpServers.fs",
		Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/u/tmp"},
		CommandShown: "npx", ArgsShown: []string{"-y", "@modelcontextprotocol/server-filesystem", "${HOME}/tmp"},
		Env: map[string]string{"LOG": "1"}, Cwd: "/tmp",
		Trust: policy.Untrusted,
		Rules: []policy.Rule{
			{Pattern: "read_*", Action: policy.Allow},
			{Pattern: "write_*", Action: policy.Confirm},
			{Pattern: "delete_*", Action: policy.Deny},
		},
		Timeout: 30 * time.Second, Retries: 3, RetryMax: 20 * time.Second,
	}
	remote := &Server{Name: "remote", Transport: HTTP, Key: "mcpServers.remote", Trust: policy.Trusted,
		URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer s3cret"},
		URLShown: "https://example.com/mcp", Secrets: []string{"Bearer s3cret", "s3cret"}}
	legacy := &Server{Name: "legacy", Transport: SSE, Key: "mcpServers.legacy", Trust: policy.Trusted,
		URL: "http://127.0.0.1:9000/sse", URLShown: "http://127.0.0.1:9000/sse"}
	docs := &Server{Name: "docs", Transport: HTTP, Key: "servers.docs", Trust: policy.Trusted,
		URL: "https://docs.example.com/mcp", URLShown: "https://docs.example.com/mcp", Timeout: 1500 * time.Millisecond}
	git := &Server{Name: "git", Transport: Stdio, Key: "servers.git", Trust: policy.Trusted,
		Command: "uvx", Args: []string{"mcp-server-git"}, Env: map[string]string{"HOME": "/home/u"},
		CommandShown: "uvx", ArgsShown: []string{"mcp-server-git"}}

	tests := []struct {
		name string
		text string
		want []*Server
	}{
		{"mcpServers", claudeFile, []*Server{fs, legacy, remote}},
		{"vscode", vscodeFile, []*Server{docs, git}},
		{"both keys", `{"servers": {"b": {"command": "b"}}, "mcpServers": {"a": {"command": "a"}}}`, []*Server{
			{Name: "a", Transport: Stdio, Key: "mcpServers.a", Trust: policy.Trusted, Command: "a", CommandShown: "a"},
			{Name: "b", Transport: Stdio, Key: "servers.b", Trust: policy.Trusted, Command: "b", CommandShown: "b"},
		}},
		{"empty file", "", nil},
		{"only comments", "// nothing yet\n/* still nothing */\n", nil},
		{"empty object", "{}", nil},
		{"other clients' top-level keys", `{"projects": {"x": 1}, "mcpServers": null, "servers": {}}`, nil},
		{"null fields count as absent", `{"mcpServers": {"n": {"command": "n", "args": null, "env": null, "type": null, "policy": {"deny": null}}}}`, []*Server{
			{Name: "n", Transport: Stdio, Key: "mcpServers.n", Trust: policy.Trusted, Command: "n", CommandShown: "n"},
		}},
		{"duplicate unknown keys are ignored", `{"inputs": [], "inputs": [], "mcpServers": {"a": {"command": "a", "disabled": true, "disabled": false}}}`, []*Server{
			{Name: "a", Transport: Stdio, Key: "mcpServers.a", Trust: policy.Trusted, Command: "a", CommandShown: "a"},
		}},
		{"byte order mark", "\xef\xbb\xbf{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}", []*Server{
			{Name: "a", Transport: Stdio, Key: "mcpServers.a", Trust: policy.Trusted, Command: "a", CommandShown: "a"},
		}},
		{"rules in file order, numeric durations", `{"mcpServers": {"p": {"command": "p", "policy": {"deny": ["rm", "kill_*"], "allow": ["get_?"]}, "timeout": 0, "retryMax": 90, "trust": "trusted"}}}`, []*Server{
			{Name: "p", Transport: Stdio, Key: "mcpServers.p", Trust: policy.Trusted, Command: "p", CommandShown: "p", RetryMax: 90 * time.Second,
				Rules: []policy.Rule{{Pattern: "rm", Action: policy.Deny}, {Pattern: "kill_*", Action: policy.Deny}, {Pattern: "get_?", Action: policy.Allow}}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("cfg.json", []byte(tt.text), testEnv)
			if err != nil {
				t.Fatal(err)
			}
			if f.Path != "cfg.json" {
				t.Errorf("Path = %q", f.Path)
			}
			if diff := cmp.Diff(tt.want, f.Servers); diff != "" {
				t.Errorf("servers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTransport(t *testing.T) {
	tests := []struct {
		server string
		want   Transport
	}{
		{`{"command": "x"}`, Stdio},
		{`{"url": "http://h/mcp"}`, HTTP},
		{`{"type": "stdio", "command": "x", "url": "http://h/mcp"}`, Stdio},
		{`{"type": "http", "command": "x", "url": "http://h/mcp"}`, HTTP},
		{`{"type": "sse", "url": "http://h/sse"}`, SSE},
		{`{"type": "streamable-http", "url": "http://h/mcp"}`, HTTP},
		{`{"type": "streamableHttp", "url": "http://h/mcp"}`, HTTP},
		{`{"type": "streamable_http", "url": "http://h/mcp"}`, HTTP},
		{`{"type": "", "url": "HTTPS://h/mcp"}`, HTTP},
	}
	for _, tt := range tests {
		f, err := Parse("cfg.json", []byte(`{"servers": {"s": `+tt.server+`}}`), nil)
		if err != nil {
			t.Errorf("%s: %v", tt.server, err)
			continue
		}
		if got := f.Servers[0].Transport; got != tt.want {
			t.Errorf("%s: Transport = %q, want %q", tt.server, got, tt.want)
		}
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"after a comment", "{\n  // a comment with \"quotes\" and é\n  \"servers\": {\n    \"a\": {}\n    /* x */ \"b\": {} } }",
			"/x/mcp.json:5:13: invalid character '\"' after object key:value pair"},
		{"two commas", "{\"servers\": {\n  \"a\": {\n  \"command\": \"x\",\n  \"args\": [\"é\"], ,}\n}}",
			"/x/mcp.json:4:18: invalid character ',' looking for beginning of object key string"},
		{"truncated", "{\"servers\": {\n", "/x/mcp.json:2:1: unexpected end of JSON input"},
		{"newline in a string", "{\"servers\": {\"a\n\": 1}}", "/x/mcp.json:1:16: invalid character '\\n' in string literal"},
		{"after a byte order mark", "\xef\xbb\xbf{\"servers\" {}}", "/x/mcp.json:1:12: invalid character '{' after object key"},
		{"lone comma", "{\"servers\": {,}}", "/x/mcp.json:1:14: invalid character ',' looking for beginning of object key string"},
		{"unterminated comment", "{\n  /* never closed\n}", "/x/mcp.json:2:3: unterminated /* comment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("/x/mcp.json", []byte(tt.text), nil)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error = %v\nwant    %s", err, tt.want)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Line == 0 {
				t.Errorf("want an *Error with a position, got %#v", err)
			}
		})
	}
}
