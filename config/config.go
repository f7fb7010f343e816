// Package config reads the MCP server configuration files people already have:
// the "mcpServers" JSON of Claude Desktop, Cursor and Claude Code, and the
// "servers" JSONC of VS Code's mcp.json. On top of those it reads mcpsh's own
// per-server keys: trust, policy, timeout, retries and retryMax, and for HTTP
// servers the OAuth client: clientId, clientSecret, clientMetadataUrl, scopes
// and grant.
//
// Loading is strict about structure (bad JSON, wrong types, unknown trust, bad
// rules) and lenient about everything else: keys other clients use are ignored,
// and a variable that is not set spoils only the server that uses it.
//
// Find never looks in the working directory: a repository someone clones must
// not be able to make mcpsh start a program. Discover (discover.go) reads the
// other hosts' files too, the project's among them, and holds back a
// project's server its host has no approval on record for, until the user
// names it.
package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/policy"
)

// Transport is how mcpsh talks to a server.
type Transport string

const (
	Stdio Transport = "stdio" // a child process, over its stdin and stdout
	HTTP  Transport = "http"  // streamable HTTP
	SSE   Transport = "sse"   // the older HTTP+SSE transport
)

// Server is one configured server, with variables already expanded.
type Server struct {
	Name      string
	Transport Transport

	// Command, Args, Env and Cwd start a Stdio server. Env holds only the
	// variables the file sets, not the whole environment.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string

	// URL and Headers reach an HTTP or SSE server.
	URL     string
	Headers map[string]string

	// CommandShown, ArgsShown and URLShown are Command, Args and URL as the
	// file writes them, for messages, the session log and `mcpsh servers`: a
	// ${VAR} stays a reference, so the value it stands for is never shown, and
	// what looks like a secret written out in full is redacted (the value after
	// --token, say, or a URL's password). ArgsShown has one entry per Args entry.
	CommandShown string
	ArgsShown    []string
	URLShown     string

	// Secrets are values that must never be printed, for redact.Known over error
	// messages and the server's stderr: every header value; env values whose
	// name or content looks secret; the value of every ${VAR} whose name or
	// value looks secret (not ${HOME}'s: blanking "/home/u" would mangle
	// messages); and the secrets found inside args and the URL. Sorted, without
	// duplicates; nil when there are none.
	Secrets []string
	// Roots are the directories mcpsh lets the server see (mcpsh's own key
	// "roots"; absolute paths).
	Roots []string

	// OAuth is how mcpsh identifies itself to the authorization server of an
	// HTTP server that asks for OAuth; the zero value lets mcpsh register
	// itself dynamically.
	OAuth OAuth

	// Trust is Trusted unless the file says otherwise: the user configured the server.
	Trust policy.Trust
	// Rules are the server's policy rules, in the order the file gives them,
	// then, once Discover has found the server, the top-level rules that
	// name it or every server.
	Rules []policy.Rule
	// Timeout limits each call; 0 when the file does not set one.
	Timeout time.Duration
	// Retries is the most attempts a replay-safe call gets; 0 when not set.
	Retries int
	// RetryMax is the total time retries may take; 0 when not set.
	RetryMax time.Duration

	// Proxied says the host's entry runs `mcpsh proxy` (as mcpsh proxy
	// config writes it) and the fields above are the server it proxies, so
	// mcpsh talks to that server itself and a proxy never starts itself.
	// ProxyAs is the entry's --as, "" when it has none (proxied.go).
	Proxied bool
	ProxyAs string

	// Key is where the server came from, such as "mcpServers.fs", for messages.
	Key string
	// Origin is the host and file the server came from (discover.go).
	Origin Origin
	// Err is a problem of this server alone, such as a variable that is not set;
	// nil when the server is usable. The fields it concerns keep their text
	// unexpanded.
	Err error
}

// Validate reports why the server cannot be used, or nil when it can. Call it
// before starting or connecting to a server.
func (s *Server) Validate() error { return s.Err }

// File is a loaded configuration file.
type File struct {
	Path string
	// Servers are sorted by name.
	Servers []*Server
	// NoDiscover is the file's "discover": false: read no other host's files.
	NoDiscover bool
	// Untrust are the file's "trust" overrides: the servers they match are
	// untrusted, from whichever host (discover_own.go).
	Untrust []string
	// Policy are the file's top-level "policy" rules, for every server their
	// server: terms match, from whichever host (rules.go). Discover appends
	// them to the rules of the servers it finds; RulesFor gives them to a
	// server it did not.
	Policy []policy.Rule
	// Log is the top-level "log" key: the session log's retention (log.go).
	Log Log
	// Missing is true when no file is at Path yet: an unknown name is then
	// not the file's fault, and the error says where the file would be.
	Missing bool
}

// Lookup returns the server called name, and its Validate error, so a caller about
// to use it cannot forget to check. The server comes back even when it is not
// usable, so it can still be described. An unknown name is an error that lists
// the known ones. Lookup works on a nil *File, which has no servers.
func (f *File) Lookup(name string) (*Server, error) {
	var path string
	var names []string
	if f != nil {
		path = f.Path
		for _, s := range f.Servers {
			if s.Name == name {
				return s, s.Validate()
			}
			names = append(names, s.Name)
		}
	}
	if len(names) > 0 {
		return nil, &Error{File: path, Msg: fmt.Sprintf("unknown server %q (known: %s)", name, strings.Join(names, ", "))}
	}
	return nil, noServers(name, f)
}

// noServers is the error for a name asked of a file that names no servers.
// A file that is not there is not blamed: the error says where mcpsh looks.
func noServers(name string, f *File) error {
	switch {
	case f == nil:
		return &Error{Msg: fmt.Sprintf("unknown server %q (no servers are configured)", name)}
	case f.Missing:
		return &Error{Msg: fmt.Sprintf("unknown server %q: no servers are configured (mcpsh's config file %s does not exist yet)", name, f.Path)}
	}
	return &Error{File: f.Path, Msg: fmt.Sprintf("unknown server %q (no servers are configured)", name)}
}
