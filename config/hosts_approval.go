package config

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
)

// A project's file comes with the repository: anyone who can commit to it
// can name a program there. The hosts ask before starting such a server:
// Claude Code asks once per server of .mcp.json ("Project scope":
// "Claude Code prompts for approval before using project-scoped servers"),
// VS Code asks to trust a workspace's server before it starts it, and
// Gemini CLI reads a project's settings only in a trusted folder when its
// folder trust is on (docs/cli/trusted-folders.md). mcpsh starts a
// project's server when its host's approval is on record in the user's own
// files, or when the user names it (-s NAME); otherwise the server is
// listed, and held. Records inside the repository (.claude/settings.json,
// say) are never read as approval: a repository cannot approve itself.

// claudeApproval is what Claude Code recorded about a folder's .mcp.json:
// enableAllProjectMcpServers, enabledMcpjsonServers and
// disabledMcpjsonServers (code.claude.com/docs/en/settings), from the
// folder's entry in ~/.claude.json or the user's settings.json.
type claudeApproval struct {
	All      bool     `json:"enableAllProjectMcpServers"`
	Enabled  []string `json:"enabledMcpjsonServers"`
	Disabled []string `json:"disabledMcpjsonServers"`
}

// add reads one record; a malformed one approves nothing.
func (a *claudeApproval) add(raw json.RawMessage) {
	var r claudeApproval
	if json.Unmarshal(raw, &r) != nil {
		return
	}
	a.All = a.All || r.All
	a.Enabled = append(a.Enabled, r.Enabled...)
	a.Disabled = append(a.Disabled, r.Disabled...)
}

// hold is why a server of .mcp.json is held: "" when it is approved.
func (a *claudeApproval) hold(name string) string {
	switch {
	case slices.Contains(a.Disabled, name):
		return "rejected in Claude Code for this project (disabledMcpjsonServers)"
	case a.All || slices.Contains(a.Enabled, name):
		return ""
	}
	return notApproved(HostClaudeCode)
}

// notApproved is why a project's server waits to be named.
func notApproved(h Host) string {
	return notApprovedText + string(h) + ": started only when named"
}

const notApprovedText = "a project's server not approved in "

// Unapproved reports a project's server held only for want of its host's
// approval (not one its host turned off): the workspace lists it.
func (o Origin) Unapproved() bool { return strings.HasPrefix(o.Held, notApprovedText) }

// geminiTrusted reports whether Gemini CLI's trustedFolders.json trusts
// folder: a TRUST_FOLDER rule for it or a folder above it, or a
// TRUST_PARENT rule for a folder beside or under it; DO_NOT_TRUST for the
// folder itself wins.
func geminiTrusted(rules map[string]string, folder string) bool {
	trusted := false
	for path, rule := range rules {
		switch rule {
		case "DO_NOT_TRUST":
			if samePath(path, folder) {
				return false
			}
		case "TRUST_FOLDER":
			trusted = trusted || within(folder, path)
		case "TRUST_PARENT":
			trusted = trusted || within(folder, filepath.Dir(path))
		}
	}
	return trusted
}

// geminiMCP reads Gemini's "mcp": {"allowed": [...], "excluded": [...]},
// which say which of its servers it connects to (docs/cli/configuration.md).
type geminiMCP struct {
	Allowed  []string `json:"allowed"`
	Excluded []string `json:"excluded"`
}

// geminiRules reads the "mcp" member of a settings file's top level.
func geminiRules(top []member) (r geminiMCP, hasAllowed bool) {
	for _, m := range top {
		if m.name == "mcp" && json.Unmarshal(m.value, &r) == nil {
			return r, r.Allowed != nil
		}
	}
	return r, false
}

// hold is why Gemini does not connect to a server these rules name.
func (r geminiMCP) hold(name string, hasAllowed bool) string {
	switch {
	case slices.Contains(r.Excluded, name):
		return `excluded in Gemini's settings (mcp.excluded)`
	case hasAllowed && !slices.Contains(r.Allowed, name):
		return `not in Gemini's mcp.allowed`
	}
	return ""
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// samePath compares two cleaned paths.
func samePath(a, b string) bool { return filepath.Clean(a) == filepath.Clean(b) }
