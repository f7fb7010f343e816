package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Tokens built at run time, so the repository holds no string a secret scanner
// would flag.
var (
	ghToken    = "ghp_" + strings.Repeat("aB3", 12)
	slackToken = "xoxb-" + "1234567890-abcdefgh"
)

var shownEnv = envOf(map[string]string{
	"HOME": "/home/u", "GITHUB_TOKEN": ghToken, "MCP_BIN": "/opt/mcp/bin/server",
	"API_HOST": "api.example.com", "API_KEY": "k-123456",
})

// TestShown checks that what mcpsh prints about a server is the file's text
// with references unexpanded, while the fields it runs with are expanded.
func TestShown(t *testing.T) {
	tests := []struct {
		name, server string
		want         *Server // only the fields compared below
	}{
		{"token from a variable", `{"command": "npx", "args": ["-y", "server-github", "--token", "${GITHUB_TOKEN}"]}`, &Server{
			Command: "npx", CommandShown: "npx",
			Args:      []string{"-y", "server-github", "--token", ghToken},
			ArgsShown: []string{"-y", "server-github", "--token", "${GITHUB_TOKEN}"},
		}},
		{"ordinary variable", `{"command": "node", "args": ["${HOME}/notes", "--port=8080"]}`, &Server{
			Command: "node", CommandShown: "node",
			Args: []string{"/home/u/notes", "--port=8080"}, ArgsShown: []string{"${HOME}/notes", "--port=8080"},
		}},
		{"literal secrets", `{"command": "srv", "args": ["--api-key", "lit3ral-key", "--password=hunter22", "-v", "` + slackToken + `"]}`, &Server{
			Command: "srv", CommandShown: "srv",
			Args:      []string{"--api-key", "lit3ral-key", "--password=hunter22", "-v", slackToken},
			ArgsShown: []string{"--api-key", "[redacted]", "--password=[redacted]", "-v", "[redacted]"},
		}},
		{"a flag after a secret flag is not its value", `{"command": "srv", "args": ["--token", "--verbose"]}`, &Server{
			Command: "srv", CommandShown: "srv", Args: []string{"--token", "--verbose"}, ArgsShown: []string{"--token", "--verbose"},
		}},
		{"command from a variable", `{"command": "${MCP_BIN}", "args": ["serve"]}`, &Server{
			Command: "/opt/mcp/bin/server", CommandShown: "${MCP_BIN}", Args: []string{"serve"}, ArgsShown: []string{"serve"},
		}},
		{"unset variable", `{"command": "srv", "args": ["a", "${NOPE}"]}`, &Server{
			Command: "srv", CommandShown: "srv", Args: []string{"a", "${NOPE}"}, ArgsShown: []string{"a", "${NOPE}"},
		}},
		{"url from variables", `{"url": "https://${API_HOST}/mcp?key=${API_KEY}&v=2"}`, &Server{
			URL: "https://api.example.com/mcp?key=k-123456&v=2", URLShown: "https://${API_HOST}/mcp?key=${API_KEY}&v=2",
		}},
		{"url with literal secrets", `{"url": "https://ada:pw-12345@h.example/mcp?api_key=lit-12345&page=1"}`, &Server{
			URL:      "https://ada:pw-12345@h.example/mcp?api_key=lit-12345&page=1",
			URLShown: "https://ada:[redacted]@h.example/mcp?api_key=[redacted]&page=1",
		}},
		{"token as the url's user", `{"url": "https://` + ghToken + `@git.example/mcp"}`, &Server{
			URL: "https://" + ghToken + "@git.example/mcp", URLShown: "https://[redacted]@git.example/mcp",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("c.json", []byte(`{"mcpServers": {"s": `+tt.server+`}}`), shownEnv)
			if err != nil {
				t.Fatal(err)
			}
			s := f.Servers[0]
			got := &Server{Command: s.Command, CommandShown: s.CommandShown, Args: s.Args, ArgsShown: s.ArgsShown, URL: s.URL, URLShown: s.URLShown}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(s.ArgsShown) != len(s.Args) {
				t.Errorf("%d args shown for %d args", len(s.ArgsShown), len(s.Args))
			}
		})
	}
}
