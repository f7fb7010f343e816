package config

import (
	"errors"
	"testing"
)

// TestParseErrors covers every structural error: each fails the whole file and
// names the file and the key path.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"top level not an object", `[]`, `want an object at the top level, got an array`},
		{"servers not an object", `{"mcpServers": []}`, `mcpServers: want an object, got an array`},
		{"server not an object", `{"mcpServers": {"a": "npx"}}`, `mcpServers.a: want an object, got a string`},
		{"server null", `{"servers": {"a": null}}`, `servers.a: want an object, got null`},
		{"empty name", `{"mcpServers": {"": {"command": "x"}}}`, `mcpServers: a server has an empty name`},
		{"name in both keys", `{"mcpServers": {"a": {"command": "x"}}, "servers": {"a": {"command": "y"}}}`,
			`servers.a: server "a" is also defined as mcpServers.a`},
		{"duplicate server", `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, `mcpServers.a: duplicate key`},
		{"duplicate field", `{"mcpServers": {"a": {"command": "x", "command": "y"}}}`, `mcpServers.a.command: duplicate key`},
		{"command and url", `{"mcpServers": {"a": {"command": "x", "url": "http://h/"}}}`,
			`mcpServers.a: has both "command" and "url"; add "type" to say which to use`},
		{"neither command nor url", `{"mcpServers": {"a": {"args": ["x"]}}}`, `mcpServers.a: has neither "command" nor "url"`},
		{"unknown type", `{"servers": {"a": {"type": "ws", "url": "ws://h/"}}}`, `servers.a.type: unknown type "ws" (want stdio, http or sse)`},
		{"type not a string", `{"servers": {"a": {"type": 1, "command": "x"}}}`, `servers.a.type: want a string, got a number`},
		{"stdio without command", `{"servers": {"a": {"type": "stdio", "url": "http://h/"}}}`, `servers.a.command: missing (required for stdio servers)`},
		{"empty command", `{"mcpServers": {"a": {"command": ""}}}`, `mcpServers.a.command: is empty`},
		{"command not a string", `{"mcpServers": {"a": {"command": ["npx"]}}}`, `mcpServers.a.command: want a string, got an array`},
		{"args not an array", `{"mcpServers": {"a": {"command": "x", "args": "-y"}}}`, `mcpServers.a.args: want an array of strings, got a string`},
		{"arg not a string", `{"mcpServers": {"a": {"command": "x", "args": ["-p", 80]}}}`, `mcpServers.a.args[1]: want a string, got a number`},
		{"env not an object", `{"mcpServers": {"a": {"command": "x", "env": ["A=1"]}}}`, `mcpServers.a.env: want an object, got an array`},
		{"env value not a string", `{"mcpServers": {"a": {"command": "x", "env": {"PORT": 80}}}}`, `mcpServers.a.env.PORT: want a string, got a number`},
		{"cwd not a string", `{"mcpServers": {"a": {"command": "x", "cwd": true}}}`, `mcpServers.a.cwd: want a string, got a boolean`},
		{"http without url", `{"servers": {"a": {"type": "http", "command": "x"}}}`, `servers.a.url: missing (required for http servers)`},
		{"sse with empty url", `{"servers": {"a": {"type": "sse", "url": ""}}}`, `servers.a.url: is empty`},
		{"relative url", `{"servers": {"a": {"url": "example.com/mcp"}}}`, `servers.a.url: "example.com/mcp" is not an absolute http or https URL`},
		{"ftp url", `{"servers": {"a": {"url": "ftp://example.com/mcp"}}}`, `servers.a.url: "ftp://example.com/mcp" is not an absolute http or https URL`},
		{"header not a string", `{"servers": {"a": {"url": "http://h/", "headers": {"X-Debug": true}}}}`, `servers.a.headers.X-Debug: want a string, got a boolean`},
		{"unknown trust", `{"mcpServers": {"fs": {"command": "x", "trust": "yes"}}}`, `mcpServers.fs.trust: unknown trust "yes" (want trusted or untrusted)`},
		{"trust not a string", `{"mcpServers": {"fs": {"command": "x", "trust": true}}}`, `mcpServers.fs.trust: want a string, got a boolean`},
		{"policy not an object", `{"mcpServers": {"a": {"command": "x", "policy": ["deny"]}}}`, `mcpServers.a.policy: want an object, got an array`},
		{"unknown action", `{"mcpServers": {"a": {"command": "x", "policy": {"alow": ["*"]}}}}`, `mcpServers.a.policy.alow: unknown action "alow" (want allow, confirm or deny)`},
		{"rule list not an array", `{"mcpServers": {"a": {"command": "x", "policy": {"deny": "rm"}}}}`, `mcpServers.a.policy.deny: want an array of strings, got a string`},
		{"bad glob", `{"mcpServers": {"a": {"command": "x", "policy": {"deny": ["rm", "[a"]}}}}`, `mcpServers.a.policy.deny[1]: bad glob "[a": the "[" at byte 0 is never closed by "]"`},
		{"empty rule", `{"mcpServers": {"a": {"command": "x", "policy": {"allow": [""]}}}}`, `mcpServers.a.policy.allow[0]: empty rule (want a tool name glob, is:WORD or both)`},
		{"unknown is: word", `{"mcpServers": {"a": {"command": "x", "policy": {"deny": ["is:dest"]}}}}`,
			`mcpServers.a.policy.deny[0]: unknown is: word "dest" (want one of destructive, write, read-only, open-world, implied, conflict, idempotent)`},
		{"a session's word in a rule", `{"mcpServers": {"a": {"command": "x", "policy": {"allow": ["is:allowed"]}}}}`,
			`mcpServers.a.policy.allow[0]: is:allowed is the session's, for the tool list's filter, not a rule's word (want one of destructive, write, read-only, open-world, implied, conflict, idempotent)`},
		{"two names", `{"mcpServers": {"a": {"command": "x", "policy": {"deny": ["delete all"]}}}}`,
			`mcpServers.a.policy.deny[0]: two tool name globs, "delete" and "all": a rule takes one (a space separates terms; write "\ " for a space in a name)`},
		{"only exclusions", `{"mcpServers": {"a": {"command": "x", "policy": {"allow": ["!rm"]}}}}`,
			`mcpServers.a.policy.allow[0]: a rule of ! terms alone matches no tool it names: add a glob ("* !rm") or is:WORD`},
		{"bad glob after !", `{"mcpServers": {"a": {"command": "x", "policy": {"deny": ["is:write !a[b"]}}}}`,
			`mcpServers.a.policy.deny[0]: "!a[b": bad glob "a[b": the "[" at byte 1 is never closed by "]"`},
		{"server: in a server's rules", `{"mcpServers": {"a": {"command": "x", "policy": {"deny": ["server:b is:write"]}}}}`,
			`mcpServers.a.policy.deny[0]: "server:b": a server's own rules are that server's already; server: belongs in the top-level "policy"`},
		{"global policy not an object", `{"policy": ["deny"]}`, `policy: want an object, got an array`},
		{"global unknown action", `{"policy": {"block": ["*"]}}`, `policy.block: unknown action "block" (want allow, confirm or deny)`},
		{"global unknown is: word", `{"policy": {"confirm": ["is:open-world", "is:openw"]}}`,
			`policy.confirm[1]: unknown is: word "openw" (want one of destructive, write, read-only, open-world, implied, conflict, idempotent)`},
		{"global server: with an unknown host", `{"policy": {"deny": ["server:cursr:github is:destructive"]}}`,
			`policy.deny[0]: "server:cursr:github": unknown host "cursr" (want NAME or HOST:NAME, HOST one of mcpsh, claude-code, claude-desktop, cursor, vscode, windsurf, codex, gemini; write "\:" for a colon in a name)`},
		{"global empty server:", `{"policy": {"deny": ["server: is:write"]}}`, `policy.deny[0]: "server:": want server:NAME or server:HOST:NAME`},
		{"global duplicate", `{"policy": {"deny": ["a"]}, "policy": {"deny": ["b"]}}`, `policy: duplicate key`},
		{"duplicate action", `{"mcpServers": {"a": {"command": "x", "policy": {"deny": ["a"], "deny": ["b"]}}}}`, `mcpServers.a.policy.deny: duplicate key`},
		{"timeout without unit", `{"mcpServers": {"a": {"command": "x", "timeout": "30"}}}`,
			`mcpServers.a.timeout: "30" is not a duration (want one such as "30s" or "1m30s", or a number of seconds)`},
		{"negative timeout", `{"mcpServers": {"a": {"command": "x", "timeout": "-1s"}}}`, `mcpServers.a.timeout: "-1s" is negative`},
		{"negative seconds", `{"mcpServers": {"a": {"command": "x", "timeout": -5}}}`, `mcpServers.a.timeout: -5 is not a usable number of seconds`},
		{"huge seconds", `{"mcpServers": {"a": {"command": "x", "timeout": 1e300}}}`, `mcpServers.a.timeout: 1e300 is not a usable number of seconds`},
		{"timeout a boolean", `{"mcpServers": {"a": {"command": "x", "timeout": true}}}`,
			`mcpServers.a.timeout: want a duration such as "30s" or a number of seconds, got a boolean`},
		{"bad retryMax", `{"mcpServers": {"a": {"command": "x", "retryMax": "soon"}}}`,
			`mcpServers.a.retryMax: "soon" is not a duration (want one such as "30s" or "1m30s", or a number of seconds)`},
		{"negative retries", `{"mcpServers": {"a": {"command": "x", "retries": -1}}}`, `mcpServers.a.retries: want a non-negative integer, got -1`},
		{"fractional retries", `{"mcpServers": {"a": {"command": "x", "retries": 1.5}}}`, `mcpServers.a.retries: want a non-negative integer, got 1.5`},
		{"retries a string", `{"mcpServers": {"a": {"command": "x", "retries": "3"}}}`, `mcpServers.a.retries: want a non-negative integer, got a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("/home/u/.config/mcpsh/config.json", []byte(tt.text), testEnv)
			want := "/home/u/.config/mcpsh/config.json: " + tt.want
			if err == nil || err.Error() != want {
				t.Fatalf("error = %v\nwant    %s", err, want)
			}
			if f != nil {
				t.Errorf("got a File with the error")
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.File != "/home/u/.config/mcpsh/config.json" {
				t.Errorf("want an *Error naming the file, got %#v", err)
			}
		})
	}
}
