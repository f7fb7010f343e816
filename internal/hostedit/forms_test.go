package hostedit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/config"
)

// The other ways a file writes an entry: Codex's inline tables and
// sub-tables, headers from variables, an env and env_vars already there,
// CRLF line ends; JSONC with comments inside the entry, a remote entry with
// an env. Each edit reads back as the same server through mcpsh, and undone
// is the file as it was.
func TestWrapEntryForms(t *testing.T) {
	for _, tt := range []struct {
		name, src, want string
		host            config.Host
		tr              config.Transport
	}{
		{
			name: "codex inline table at the top",
			host: config.HostCodex, tr: config.Stdio,
			src:  "mcp_servers.a = { command = 'npx', args = ['-y', \"pkg\"], env = { K = \"v\" } } # note\n",
			want: "mcp_servers.a = { command = \"/usr/local/bin/mcpsh\", args = [\"proxy\", \"--as\", \"codex:a\", \"--\", 'npx', '-y', \"pkg\"], env = { K = \"v\" } } # note\n",
		},
		{
			name: "codex inline table under [mcp_servers], no args",
			host: config.HostCodex, tr: config.Stdio,
			src:  "[mcp_servers]\na = { command = \"srv\", enabled = false }\nb = { command = \"other\" }\n",
			want: "[mcp_servers]\na = { command = \"/usr/local/bin/mcpsh\", args = [\"proxy\", \"--as\", \"codex:a\", \"--\", \"srv\"], enabled = false }\nb = { command = \"other\" }\n",
		},
		{
			name: "codex remote inline",
			host: config.HostCodex, tr: config.HTTP,
			src:  "[mcp_servers]\na = { url = \"https://h/mcp\", http_headers = { \"X-Key\" = \"k1\" }, tool_timeout_sec = 5 }\n",
			want: "[mcp_servers]\na = { command = \"/usr/local/bin/mcpsh\", args = [\"proxy\", \"--as\", \"codex:a\", \"--url\", \"https://h/mcp\", \"--header-env\", \"X-Key=MCPSH_HEADER_1\"], tool_timeout_sec = 5, env = { MCPSH_HEADER_1 = \"k1\" } }\n",
		},
		{
			name: "codex sub-tables of headers, an env and env_vars there already",
			host: config.HostCodex, tr: config.HTTP,
			src:  "[mcp_servers.a]\n# the tracker\nurl = \"https://h/mcp\"\nenv_vars = [\"HOME\"]\n\n[mcp_servers.a.http_headers]\nX-Tenant = \"t1\"\n\n[mcp_servers.a.env_http_headers]\nX-Token = \"TOK\"\n\n[mcp_servers.a.env]\nMCPSH_HEADER_1 = \"taken\"\n\n[mcp_servers.b]\ncommand = \"b\"\n",
			want: "[mcp_servers.a]\n# the tracker\ncommand = \"/usr/local/bin/mcpsh\"\nargs = [\"proxy\", \"--as\", \"codex:a\", \"--url\", \"https://h/mcp\", \"--header-env\", \"X-Token=TOK\", \"--header-env\", \"X-Tenant=MCPSH_HEADER_2\"]\nenv_vars = [\"HOME\", \"TOK\"]\n\n[mcp_servers.a.env]\nMCPSH_HEADER_1 = \"taken\"\nMCPSH_HEADER_2 = \"t1\"\n\n[mcp_servers.b]\ncommand = \"b\"\n",
		},
		{
			name: "codex headers last, with dotted env",
			host: config.HostCodex, tr: config.HTTP,
			src:  "[mcp_servers.a]\nurl = \"https://h/mcp\"\nenv.A = \"1\"\nbearer_token_env_var = \"T\"\nhttp_headers.X = \"y\"\n",
			want: "[mcp_servers.a]\ncommand = \"/usr/local/bin/mcpsh\"\nargs = [\"proxy\", \"--as\", \"codex:a\", \"--url\", \"https://h/mcp\", \"--bearer-env\", \"T\", \"--header-env\", \"X=MCPSH_HEADER_1\"]\nenv_vars = [\"T\"]\nenv.A = \"1\"\nenv.MCPSH_HEADER_1 = \"y\"\n",
		},
		{
			name: "codex last key taken out, with its comment",
			host: config.HostCodex, tr: config.HTTP,
			src:  "[mcp_servers.a]\nurl = \"https://h/mcp\"\n# the token\nbearer_token_env_var = \"T\"\n\n# next\n[other]\nx = 1\n",
			want: "[mcp_servers.a]\ncommand = \"/usr/local/bin/mcpsh\"\nargs = [\"proxy\", \"--as\", \"codex:a\", \"--url\", \"https://h/mcp\", \"--bearer-env\", \"T\"]\nenv_vars = [\"T\"]\n\n# next\n[other]\nx = 1\n",
		},
		{
			name: "codex CRLF",
			host: config.HostCodex, tr: config.HTTP,
			src:  "[mcp_servers.a]\r\nurl = \"https://h/mcp\"\r\nhttp_headers = { A = \"b\" }\r\n\r\n[other]\r\nx = 1\r\n",
			want: "[mcp_servers.a]\r\ncommand = \"/usr/local/bin/mcpsh\"\r\nargs = [\"proxy\", \"--as\", \"codex:a\", \"--url\", \"https://h/mcp\", \"--header-env\", \"A=MCPSH_HEADER_1\"]\r\n\r\n[mcp_servers.a.env]\r\nMCPSH_HEADER_1 = \"b\"\r\n\r\n[other]\r\nx = 1\r\n",
		},
		{
			name: "jsonc comments inside the entry",
			host: config.HostVSCode, tr: config.Stdio,
			src:  "{\"servers\": {\n  \"a\": {\n    // how it starts\n    \"command\": \"npx\", /* runner */\n    \"env\": {\"A\": \"b\",}, // trailing\n  },\n}}\n",
			want: "{\"servers\": {\n  \"a\": {\n    // how it starts\n    \"command\": \"/usr/local/bin/mcpsh\",\n    \"args\": [\"proxy\", \"--as\", \"vscode:a\", \"--\", \"npx\"], /* runner */\n    \"env\": {\"A\": \"b\",}, // trailing\n  },\n}}\n",
		},
		{
			name: "remote entry with an env, headers last",
			host: config.HostCursor, tr: config.HTTP,
			src:  "{\"mcpServers\": {\"a\": {\"env\": {\n  \"MCPSH_HEADER_1\": \"x\"\n}, \"url\": \"https://h/mcp\", \"headers\": {\"A\": \"1\", \"B\": \"${env:B}\"}}}}\n",
			want: "{\"mcpServers\": {\"a\": {\"env\": {\n  \"MCPSH_HEADER_1\": \"x\",\n  \"MCPSH_HEADER_2\": \"1\",\n  \"MCPSH_HEADER_3\": \"${env:B}\"\n}, \"command\": \"/usr/local/bin/mcpsh\", \"args\": [\"proxy\", \"--as\", \"cursor:a\", \"--url\", \"https://h/mcp\", \"--header-env\", \"A=MCPSH_HEADER_2\", \"--header-env\", \"B=MCPSH_HEADER_3\"]}}}\n",
		},
		{
			name: "windsurf with both URLs and a type",
			host: config.HostWindsurf, tr: config.HTTP,
			src:  "{\"mcpServers\": {\"a\": {\"url\": \"https://old/mcp\", \"type\": \"http\", \"serverUrl\": \"https://h/mcp\"}}}",
			want: "{\"mcpServers\": {\"a\": {\"command\": \"/usr/local/bin/mcpsh\", \"args\": [\"proxy\", \"--as\", \"windsurf:a\", \"--url\", \"https://h/mcp\"]}}}",
		},
		{
			name: "vscode remote without a type",
			host: config.HostVSCode, tr: config.HTTP,
			src:  "{\"servers\": {\"a\": {\"url\": \"https://h/mcp\", \"headers\": {}}}}",
			want: "{\"servers\": {\"a\": {\"type\": \"stdio\", \"command\": \"/usr/local/bin/mcpsh\", \"args\": [\"proxy\", \"--as\", \"vscode:a\", \"--url\", \"https://h/mcp\"], \"env\": {}}}}",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := Path(tt.host, config.ScopeUser, "", "a")
			p, err := Wrap(tt.host, "f", []byte(tt.src), path, Options{Command: mcpsh, As: string(tt.host) + ":a", Transport: tt.tr})
			if err != nil {
				t.Fatal(err)
			}
			if string(p.New) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", p.New, tt.want)
			}
			f := config.HostFile{Host: tt.host, Scope: config.ScopeUser, Path: "f"}
			if err := Check(f, p, Wrapped(nil)); err != nil {
				t.Error(err)
			}
			u, err := Undo(recordOf(p, f), p.New, false)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(u.New, p.Old) {
				t.Errorf("undo:\n%s", Diff("before", "undone", p.Old, u.New))
			}
		})
	}
}

func TestSnippet(t *testing.T) {
	p := wrapCases[4].wrap(t) // cursor github
	want := `{
  "mcpServers": {
    "github": {
      "command": "/usr/local/bin/mcpsh",
      "args": ["proxy", "--as", "cursor:github", "--url", "http://127.0.0.1:9/cursor-github/mcp", "--header-env", "Authorization=MCPSH_HEADER_1"],
      "env": { "MCPSH_HEADER_1": "Bearer ${env:GITHUB_TOKEN}" }
    }
  }
}
`
	if got := string(Snippet(p)); got != want {
		t.Errorf("got:\n%s", got)
	}
	p = wrapCases[11].wrap(t) // codex context7
	if got := string(Snippet(p)); !strings.HasPrefix(got, "[mcp_servers.context7]\ncommand = ") || !strings.HasSuffix(got, "LOG_LEVEL = \"info\"\n") {
		t.Errorf("got:\n%s", got)
	}
	if h := ClaudeHint(wrapCases[2].wrap(t)); h != `claude mcp add-json sentry '{"type":"stdio","command":"/usr/local/bin/mcpsh","args":["proxy","--as","claude-code:sentry","--url","http://127.0.0.1:9/sentry/mcp","--header-env","Authorization=MCPSH_HEADER_1"],"env":{"MCPSH_HEADER_1":"Bearer ${SENTRY_TOKEN:-none}"}}' -s user` {
		t.Errorf("hint: %s", h)
	}
}

func TestDiff(t *testing.T) {
	old := []byte(strings.Repeat("keep\n", 10) + "a\nb\n" + strings.Repeat("tail\n", 10))
	new := []byte(strings.Repeat("keep\n", 10) + "a\nB\nc\n" + strings.Repeat("tail\n", 10))
	want := "--- f\n+++ f\n@@ -9,7 +9,8 @@\n keep\n keep\n a\n-b\n+B\n+c\n tail\n tail\n tail\n"
	if got := Diff("f", "f", old, new); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
	if Diff("f", "f", old, old) != "" {
		t.Error("no change, no diff")
	}
}
