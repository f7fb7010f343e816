package config

import (
	"path/filepath"
)

// The files mcpsh reads, per platform. README's "Servers from other hosts"
// has the same table; TestUserFilesTable keeps the two in step.

// projectFiles are the files of a project folder, in the order they win a
// clash within one folder.
var projectFiles = []struct {
	host Host
	rel  string
}{
	{HostClaudeCode, ".mcp.json"},
	{HostCursor, filepath.Join(".cursor", "mcp.json")},
	{HostVSCode, filepath.Join(".vscode", "mcp.json")},
	{HostGemini, filepath.Join(".gemini", "settings.json")},
}

// userFile is a host's file for the user.
type userFile struct {
	host Host
	path string
}

// places are the user's folders the paths are made from, for one platform.
type places struct {
	goos string
	home string // HOME, or USERPROFILE on Windows; "" when unknown
	// appData is the folder desktop applications keep their settings in:
	// ~/Library/Application Support on macOS, %APPDATA% on Windows,
	// $XDG_CONFIG_HOME (~/.config) elsewhere.
	appData string
	// claudeDir is $CLAUDE_CONFIG_DIR, where Claude Code then keeps
	// .claude.json and settings.json; "" for the defaults.
	claudeDir string
	// codexHome is $CODEX_HOME, else ~/.codex.
	codexHome string
}

// placesFor finds the folders from the environment. Relative values are
// ignored, as config.Find ignores them: a relative HOME would make the
// files depend on the working directory.
func placesFor(goos string, getenv func(string) (string, bool)) places {
	abs := func(k string) string {
		v, _ := getenv(k)
		if !isAbs(goos, v) {
			return ""
		}
		return v
	}
	p := places{goos: goos, home: abs("HOME"), claudeDir: abs("CLAUDE_CONFIG_DIR"), codexHome: abs("CODEX_HOME")}
	if goos == "windows" {
		if up := abs("USERPROFILE"); up != "" {
			p.home = up // what Windows calls the home folder; HOME is a Unix habit
		}
	}
	switch goos {
	case "windows":
		p.appData = abs("APPDATA")
	case "darwin":
		if p.home != "" {
			p.appData = filepath.Join(p.home, "Library", "Application Support")
		}
	default:
		p.appData = abs("XDG_CONFIG_HOME")
		if p.appData == "" && p.home != "" {
			p.appData = filepath.Join(p.home, ".config")
		}
	}
	if p.codexHome == "" && p.home != "" {
		p.codexHome = filepath.Join(p.home, ".codex")
	}
	return p
}

// isAbs is filepath.IsAbs for goos, so Windows paths are judged as Windows
// judges them whatever runs the tests.
func isAbs(goos, p string) bool {
	if goos != "windows" {
		return len(p) > 0 && p[0] == '/'
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') || len(p) >= 2 && p[0] == '\\' && p[1] == '\\'
}

// claudeJSON is Claude Code's ~/.claude.json: its user servers, and per
// project its local servers and approvals.
func (p places) claudeJSON() string {
	switch {
	case p.claudeDir != "":
		return filepath.Join(p.claudeDir, ".claude.json")
	case p.home != "":
		return filepath.Join(p.home, ".claude.json")
	}
	return ""
}

// claudeSettings is Claude Code's user settings.json, which may approve the
// servers of every project's .mcp.json.
func (p places) claudeSettings() string {
	switch {
	case p.claudeDir != "":
		return filepath.Join(p.claudeDir, "settings.json")
	case p.home != "":
		return filepath.Join(p.home, ".claude", "settings.json")
	}
	return ""
}

// geminiTrust is Gemini CLI's trustedFolders.json (docs/cli/trusted-folders.md).
func (p places) geminiTrust() string {
	if p.home == "" {
		return ""
	}
	return filepath.Join(p.home, ".gemini", "trustedFolders.json")
}

// userFiles are the user files, in the order they win a clash. Claude
// Code's ~/.claude.json is read apart (its local servers come before the
// project's files) and comes first.
func (p places) userFiles() []userFile {
	var out []userFile
	add := func(h Host, base string, elem ...string) {
		if base != "" {
			out = append(out, userFile{h, filepath.Join(append([]string{base}, elem...)...)})
		}
	}
	// Claude Desktop: the quickstart's per-platform claude_desktop_config.json;
	// on Linux ~/.config/Claude, as the unofficial builds keep it.
	add(HostClaudeDesktop, p.appData, "Claude", "claude_desktop_config.json")
	add(HostCursor, p.home, ".cursor", "mcp.json")
	// VS Code's user profile folder (Code/User); other profiles and the
	// Insiders build are not read.
	add(HostVSCode, p.appData, "Code", "User", "mcp.json")
	add(HostWindsurf, p.home, ".codeium", "windsurf", "mcp_config.json")
	add(HostCodex, p.codexHome, "config.toml")
	add(HostGemini, p.home, ".gemini", "settings.json")
	return out
}
