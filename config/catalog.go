package config

import (
	"fmt"
	"slices"
	"strings"
)

// Catalog is every server found: mcpsh's own, then the project's, then the
// user's, in the order they win a clash of names.
type Catalog struct {
	// Own is mcpsh's own file (its Path names it even when it is missing).
	Own *File
	// Servers are in precedence order: mcpsh's own file; Claude Code's
	// servers for this folder (~/.claude.json); the project's files from the
	// working directory up to the repository's root, nearest first, and
	// within a folder .mcp.json, .cursor, .vscode, .gemini; then the user's
	// files in Hosts order.
	Servers []*Server
	// Warnings are files that could not be read or parsed, each naming the
	// file and what is wrong (with line and column where known). Their
	// servers are missing; the others are used.
	Warnings []*Error
	// Root is the folder the project files were looked for up to: the
	// repository's root (where .git is), or the working directory when it is
	// in no repository; "" when discovery was off.
	Root string
	// Home is the user's folder, for shortening paths in messages.
	Home string
}

// Names are the names of the servers, each once, sorted.
func (c *Catalog) Names() []string {
	var names []string
	for _, s := range c.Servers {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Named are the servers called name, in precedence order.
func (c *Catalog) Named(name string) []*Server {
	var out []*Server
	for _, s := range c.Servers {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Winner is the server -s NAME picks among same: the first that is not
// held, else the first.
func Winner(same []*Server) *Server {
	for _, s := range same {
		if s.Origin.Held == "" {
			return s
		}
	}
	if len(same) > 0 {
		return same[0]
	}
	return nil
}

// Active are the servers mcpsh uses when none is named (the workspace,
// --all): for each name its winner, unless held; sorted by name.
func (c *Catalog) Active() []*Server {
	var out []*Server
	for _, name := range c.Names() {
		if w := Winner(c.Named(name)); w != nil && w.Origin.Held == "" {
			out = append(out, w)
		}
	}
	return out
}

// Resolve finds the server -s ref names: NAME, by precedence, or HOST:NAME
// (cursor:github), the server of that name from that host's files. others
// are the servers the same reference could also have meant, for a note.
// The error is an *Error listing what is known; a server that is found but
// unusable comes back with its Validate error.
func (c *Catalog) Resolve(ref string) (s *Server, others []*Server, err error) {
	candidates := c.Named(ref)
	if h, name, ok := strings.Cut(ref, ":"); ok {
		if host, known := ParseHost(h); known {
			var inHost []*Server
			for _, s := range c.Named(name) {
				if s.Origin.Host == host {
					inHost = append(inHost, s)
				}
			}
			if len(inHost) > 0 || len(candidates) == 0 {
				if len(inHost) == 0 {
					return nil, nil, c.unknownIn(host, name)
				}
				candidates = inHost
			}
		}
	}
	if len(candidates) == 0 {
		return nil, nil, c.unknown(ref)
	}
	w := Winner(candidates)
	for _, o := range candidates {
		if o != w {
			others = append(others, o)
		}
	}
	return w, others, w.Validate()
}

// unknown is the error for a name no file defines.
func (c *Catalog) unknown(ref string) error {
	names := c.Names()
	if len(names) == 0 {
		return noServers(ref, c.Own)
	}
	return &Error{File: c.Own.Path, Msg: fmt.Sprintf("unknown server %q (known: %s)", ref, strings.Join(names, ", "))}
}

// unknownIn is the error for HOST:NAME when that host has no such server.
func (c *Catalog) unknownIn(h Host, name string) error {
	var names []string
	for _, s := range c.Servers {
		if s.Origin.Host == h {
			names = append(names, s.Name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) == 0 {
		return &Error{Msg: fmt.Sprintf("unknown server %s:%s (mcpsh found no servers of %s)", h, name, h)}
	}
	return &Error{Msg: fmt.Sprintf("unknown server %s:%s (%s has: %s)", h, name, h, strings.Join(names, ", "))}
}
