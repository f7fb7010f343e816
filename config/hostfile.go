package config

import (
	"encoding/json"
	"path/filepath"
	"runtime"
)

// HostFile is one host's file, read on its own by ReadHostFile.
type HostFile struct {
	Host Host
	// Scope is ScopeUser or ScopeProject (for ~/.claude.json, ScopeUser:
	// its projects' servers come back with ScopeLocal).
	Scope Scope
	Path  string
	// Project is the folder a project file belongs to, where its
	// ${workspaceFolder} points; "" for a user's file.
	Project string
	// Home is the user's folder, for ${userHome}.
	Home string
}

// ReadHostFile reads the servers of one host's file from its text, as
// discovery reads that host's files, but alone: without the approvals and
// clashes that need the other files, and with every project of
// ~/.claude.json rather than the working folder's. mcpsh proxy config reads
// a file before and after its edit with it, to check that the edit changed
// nothing else. A nil getenv means no variable is set.
func ReadHostFile(f HostFile, data []byte, getenv func(string) (string, bool)) ([]*Server, error) {
	if getenv == nil {
		getenv = noEnv
	}
	if _, ok := dialects[f.Host]; !ok {
		return nil, &Error{File: f.Path, Msg: "not a host's file mcpsh reads (" + string(f.Host) + ")"}
	}
	hp := newHostParser(f.Host, f.Scope, f.Path, f.Project, f.Project, f.Home, getenv)
	if f.Host == HostCodex {
		return hp.codexServers(data)
	}
	servers, top, err := hp.parseFile(data)
	if err != nil || f.Host != HostClaudeCode || f.Scope != ScopeUser {
		return servers, err
	}
	for _, m := range top {
		if m.name != "projects" || kind(m.value) == "null" {
			continue
		}
		projects, err := hp.object("projects", m.value, nil)
		if err != nil {
			return nil, err
		}
		for _, pm := range projects {
			dir := filepath.FromSlash(pm.name)
			key := "projects[" + dir + "]"
			if kind(pm.value) != "an object" {
				continue
			}
			ms, err := hp.object(key, pm.value, func(k string) bool { return k == "mcpServers" })
			if err != nil {
				return nil, err
			}
			lp := newHostParser(HostClaudeCode, ScopeLocal, f.Path, dir, dir, f.Home, getenv)
			for _, sm := range ms {
				if sm.name != "mcpServers" || kind(sm.value) == "null" {
					continue
				}
				local, err := lp.servers(key+".mcpServers", json.RawMessage(sm.value))
				if err != nil {
					return nil, err
				}
				servers = append(servers, local...)
			}
		}
	}
	return servers, nil
}

// ClaudeCodeFile is Claude Code's ~/.claude.json ($CLAUDE_CONFIG_DIR's
// when set), which holds its user and local servers; "" when there is no
// home folder.
func ClaudeCodeFile(getenv func(string) (string, bool)) string {
	if getenv == nil {
		getenv = noEnv
	}
	return placesFor(runtime.GOOS, getenv).claudeJSON()
}
