package config

import (
	"fmt"
	"slices"
	"strings"
)

// Host is a program whose MCP configuration mcpsh reads: mcpsh itself, or
// one of the hosts people already configured their servers in. Its string
// is the prefix that picks a server from it: -s cursor:github.
type Host string

const (
	HostMcpsh         Host = "mcpsh"
	HostClaudeCode    Host = "claude-code"
	HostClaudeDesktop Host = "claude-desktop"
	HostCursor        Host = "cursor"
	HostVSCode        Host = "vscode"
	HostWindsurf      Host = "windsurf"
	HostCodex         Host = "codex"
	HostGemini        Host = "gemini"
)

// Hosts are the hosts in the order their user files are read: an earlier
// one wins a clash between user files.
var Hosts = []Host{HostMcpsh, HostClaudeCode, HostClaudeDesktop, HostCursor, HostVSCode, HostWindsurf, HostCodex, HostGemini}

// ParseHost returns the host s names, and whether it names one.
func ParseHost(s string) (Host, bool) {
	h := Host(s)
	return h, slices.Contains(Hosts, h)
}

// Scope is where a server's file sits, which decides precedence: mcpsh's own
// file first, then what is the project's (Claude Code's servers for this
// folder, then the project's files, nearest first), then the user's files.
type Scope string

const (
	ScopeOwn     Scope = "own"     // mcpsh's own config
	ScopeLocal   Scope = "local"   // Claude Code's servers for this folder, in ~/.claude.json
	ScopeProject Scope = "project" // a file in the working tree
	ScopeUser    Scope = "user"    // a host's file for the user
)

// Origin is where a server was found.
type Origin struct {
	Host  Host
	Scope Scope
	// File is the file that defines the server; "" for mcpsh's config when
	// there is none.
	File string
	// Held, when set, is why mcpsh does not start the server unless it is
	// named (-s NAME): its host disabled it, or it is a project's server that
	// nobody approved. A held server never wins a clash against one that is
	// not, is not in the workspace's connections or --all.
	Held string
	// Project is the folder a project file belongs to (where .cursor or
	// .vscode is), or the folder Claude Code's local servers are for.
	Project string
}

// Ref is what -s takes to pick s whatever else uses its name: HOST:NAME.
func (s *Server) Ref() string {
	h := s.Origin.Host
	if h == "" {
		h = HostMcpsh
	}
	return string(h) + ":" + s.Name
}

// Describe says where the server came from, for messages: "cursor
// (~/.cursor/mcp.json)". home, when not empty, is shortened to "~".
func (o Origin) Describe(home string) string {
	h := o.Host
	if h == "" {
		h = HostMcpsh
	}
	if o.File == "" {
		return string(h)
	}
	return fmt.Sprintf("%s (%s)", h, ShortPath(o.File, home))
}

// ShortPath writes path under home as ~/...; home "" leaves it.
func ShortPath(path, home string) string {
	if home == "" || len(home) < 2 {
		return path
	}
	if rest, ok := strings.CutPrefix(path, home); ok && (rest == "" || rest[0] == '/' || rest[0] == '\\') {
		return "~" + rest
	}
	return path
}

// dialect is how one host writes its file: where its servers are, which of
// their keys mcpsh reads, and which variable references it expands. Each
// rule names the host documentation it follows.
type dialect struct {
	host Host
	// top are the top-level keys that hold servers.
	top []string
	// keys are the per-server keys read; every other key is the host's own
	// business (autoApprove, includeTools, description, ...) and ignored.
	keys map[string]bool
	// forms are the references expanded in command, args, env, cwd, url and
	// headers; predefined variables are filled in per file.
	forms forms
	// envFile: the host reads "envFile", a dotenv file, for stdio servers.
	envFile bool
}

// connectKeys are the keys every dialect reads: how to start or reach the
// server. mcpsh's own keys (trust, policy, timeout, ...) are read from
// mcpsh's file only: Gemini's "trust" is a boolean, its "timeout" is in
// milliseconds, and another host's file is never a place to loosen mcpsh.
func connectKeys(more ...string) map[string]bool {
	m := map[string]bool{"type": true, "command": true, "args": true, "env": true, "cwd": true,
		"url": true, "headers": true, "disabled": true}
	for _, k := range more {
		m[k] = true
	}
	return m
}

var dialects = map[Host]*dialect{
	// Claude Code (code.claude.com/docs/en/mcp): "mcpServers" in .mcp.json
	// and ~/.claude.json; type stdio, http or sse; "Environment variable
	// expansion in .mcp.json": ${VAR} and ${VAR:-default} in command, args,
	// env, url and headers.
	HostClaudeCode: {host: HostClaudeCode, top: []string{"mcpServers"}, keys: connectKeys(),
		forms: forms{braced: true, defaults: true, host: HostClaudeCode}},
	// Claude Desktop (modelcontextprotocol.io quickstart, "claude_desktop_config.json"):
	// command, args and env, and no expansion at all: a ${VAR} reaches the
	// server as written.
	HostClaudeDesktop: {host: HostClaudeDesktop, top: []string{"mcpServers"}, keys: connectKeys(),
		forms: forms{host: HostClaudeDesktop}},
	// Cursor (cursor.com/docs/context/mcp, "Config interpolation"): ${env:NAME},
	// ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename},
	// ${pathSeparator} and ${/} in command, args, env, url and headers;
	// "envFile" for stdio servers; a url without type is streamable HTTP.
	HostCursor: {host: HostCursor, top: []string{"mcpServers"}, keys: connectKeys("envFile"), envFile: true,
		forms: forms{envPrefix: true, prefixed: true, host: HostCursor}},
	// VS Code (code.visualstudio.com/docs/copilot/reference/mcp-configuration):
	// "servers" (JSONC), "inputs" whose ${input:ID} mcpsh cannot prompt for,
	// type stdio, http or sse, "envFile", and the predefined variables of the
	// variables reference (${workspaceFolder}, ${userHome}, ${env:NAME}, ...).
	HostVSCode: {host: HostVSCode, top: []string{"servers"}, keys: connectKeys("envFile"), envFile: true,
		forms: forms{envPrefix: true, prefixed: true, host: HostVSCode}},
	// Windsurf (docs.windsurf.com/windsurf/cascade/mcp): "mcpServers" in
	// ~/.codeium/windsurf/mcp_config.json; a remote server's "serverUrl" or
	// "url"; "Config Interpolation": ${env:VAR} in command, args, env,
	// serverUrl, url and headers.
	HostWindsurf: {host: HostWindsurf, top: []string{"mcpServers"}, keys: connectKeys("serverUrl"),
		forms: forms{envPrefix: true, prefixed: true, host: HostWindsurf}},
	// Gemini CLI (github.com/google-gemini/gemini-cli docs/tools/mcp-server.md,
	// "Configuration Properties"): command, or "httpUrl" (streamable HTTP), or
	// "url" (SSE); env values take $VAR and ${VAR}, and docs/cli/configuration.md
	// expands them in every string of settings.json; "timeout" in milliseconds.
	HostGemini: {host: HostGemini, top: []string{"mcpServers"}, keys: connectKeys("httpUrl", "timeout"),
		forms: forms{braced: true, bare: true, host: HostGemini}},
	// Codex's TOML has its own reader (hosts_codex.go): no expansion.
	HostCodex: {host: HostCodex, top: []string{"mcp_servers"}, keys: connectKeys(), forms: forms{host: HostCodex}},
}
