package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// Discovery says what Discover reads.
type Discovery struct {
	// Own is mcpsh's own file, loaded already; nil for none.
	Own *File
	// Getenv reads the environment; nil means nothing is set.
	Getenv func(string) (string, bool)
	// Dir is the working directory, where project files are looked for; ""
	// reads none.
	Dir string
	// GOOS decides the user files' folders; runtime.GOOS when empty.
	GOOS string
	// Off reads mcpsh's own file only (--no-discover); so does the file's
	// "discover": false.
	Off bool
}

// maxHostFile bounds a host's file. ~/.claude.json keeps every project's
// history and grows to megabytes; past this it is not read.
const maxHostFile = 64 << 20

// Discover reads mcpsh's own servers and, unless told not to, every host's
// file mcpsh knows (hosts_paths.go). It never fails: a file that cannot be
// read is a warning, and a server that cannot be used has its Err.
func Discover(d Discovery) *Catalog {
	if d.Getenv == nil {
		d.Getenv = noEnv
	}
	if d.GOOS == "" {
		d.GOOS = runtime.GOOS
	}
	own := d.Own
	if own == nil {
		own = &File{}
	}
	c := &Catalog{Own: own}
	for _, s := range own.Servers {
		// A copy: the catalog's servers get the top-level rules, and the
		// file's must stay as written, however often it is discovered from.
		cp := *s
		cp.Origin = Origin{Host: HostMcpsh, Scope: ScopeOwn, File: own.Path}
		c.Servers = append(c.Servers, &cp)
	}
	if !d.Off && !own.NoDiscover {
		dr := &discoverer{c: c, getenv: d.Getenv, places: placesFor(d.GOOS, d.Getenv)}
		c.Home = dr.places.home
		dr.run(d.Dir)
	}
	applyUntrust(own.Untrust, c.Servers)
	applyPolicy(own, c.Servers)
	return c
}

// discoverer is one run of Discover.
type discoverer struct {
	c      *Catalog
	getenv func(string) (string, bool)
	places places
}

func (dr *discoverer) run(dir string) {
	var dirs []string
	if dir != "" {
		dirs, dr.c.Root = projectDirs(dir)
	}
	home := dr.places.home
	claude := dr.claudeJSON(dirs)
	local, user := claude.local, claude.user
	var project []*Server
	for _, folder := range dirs {
		if home != "" && samePath(folder, home) {
			continue // its .cursor and .gemini files are the user's, read below
		}
		for _, pf := range projectFiles {
			path := filepath.Join(folder, pf.rel)
			project = append(project, dr.projectFile(pf.host, path, folder, &claude)...)
		}
	}
	var users []*Server
	users = append(users, user...)
	for _, uf := range dr.places.userFiles() {
		users = append(users, dr.userFile(uf)...)
	}
	for _, s := range slices.Concat(local, project) {
		s.runIn(s.Origin.Project)
	}
	dr.c.Servers = slices.Concat(dr.c.Servers, local, project, users)
}

// runIn gives a project's stdio server the project's folder as its working
// directory, where Cursor and VS Code start it, and resolves a relative
// "cwd" from there rather than from wherever mcpsh runs.
func (s *Server) runIn(folder string) {
	if s.Transport != Stdio || folder == "" {
		return
	}
	switch {
	case s.Cwd == "":
		s.Cwd = folder
	case !filepath.IsAbs(s.Cwd):
		s.Cwd = filepath.Join(folder, s.Cwd)
	}
}

// projectDirs are the folders from dir up to the repository's root, the
// first folder with a .git (a folder, or a file in a worktree), nearest
// first. Outside a repository only dir is read: its parents could be
// anything, a shared /tmp or a home full of unrelated projects.
func projectDirs(dir string) (dirs []string, root string) {
	dir = filepath.Clean(dir)
	for d := dir; ; {
		dirs = append(dirs, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return dirs, d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return []string{dir}, dir
		}
		d = parent
	}
}

// warn records a file that could not be used.
func (dr *discoverer) warn(err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Msg: err.Error(), Err: err}
	}
	dr.c.Warnings = append(dr.c.Warnings, e)
}

// read returns a host file's text, or nil when it does not exist (no
// warning) or cannot be read (a warning).
func (dr *discoverer) read(path string) []byte {
	if path == "" {
		return nil
	}
	data, err := readRegular(path, maxHostFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		dr.warn(&Error{File: path, Msg: err.Error(), Err: err})
		return nil
	}
	return data
}

// readRegular reads a regular file of at most limit bytes. It looks before
// it opens: a FIFO placed where a config file belongs would block the open
// for ever, and a device would never end.
func readRegular(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			return nil, &Error{File: path, Msg: pe.Err.Error(), Err: err}
		}
		return nil, err
	}
	switch {
	case fi.IsDir():
		return nil, fmt.Errorf("is a directory, not a file")
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("is not a regular file")
	case fi.Size() > limit:
		return nil, fmt.Errorf("is larger than %d MiB: not read", limit>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, 0, fi.Size()+512) // read in one go, not by doubling
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		switch {
		case int64(len(data)) > limit:
			return nil, fmt.Errorf("is larger than %d MiB: not read", limit>>20)
		case err == io.EOF:
			return data, nil
		case err != nil:
			return nil, err
		case len(data) == cap(data):
			data = append(data, 0)[:len(data)] // it grew since the stat
		}
	}
}

// claudeState is what ~/.claude.json holds for this run.
type claudeState struct {
	user, local []*Server
	// approvals are the records by project folder; settings are the user's
	// settings.json's, which hold for every folder.
	approvals map[string]*claudeApproval
	settings  claudeApproval
}

// approval is what is recorded for folder's .mcp.json.
func (cs *claudeState) approval(folder string) *claudeApproval {
	a := cs.settings
	if r := cs.approvals[folder]; r != nil {
		a.All = a.All || r.All
		a.Enabled = append(slices.Clone(a.Enabled), r.Enabled...)
		a.Disabled = append(slices.Clone(a.Disabled), r.Disabled...)
	}
	return &a
}

// claudeJSON reads Claude Code's ~/.claude.json: the user's servers
// (top-level mcpServers), the local servers of the nearest project folder
// that has an entry (projects[FOLDER].mcpServers), and the approvals of
// every folder of dirs; and the user's settings.json for approvals. The
// file is walked, not decoded (hosts_claudejson.go).
func (dr *discoverer) claudeJSON(dirs []string) claudeState {
	cs := claudeState{approvals: map[string]*claudeApproval{}}
	if data := dr.read(dr.places.claudeSettings()); data != nil {
		cs.settings.add(data)
	}
	path := dr.places.claudeJSON()
	data := dr.read(path)
	if len(bytes.TrimSpace(data)) == 0 {
		return cs
	}
	hp := newHostParser(HostClaudeCode, ScopeUser, path, "", dr.c.Root, dr.places.home, dr.getenv)
	start := 0
	if bytes.HasPrefix(data, bom) {
		start = len(bom)
	}
	wanted := map[string]bool{}
	for _, d := range dirs {
		wanted[d] = true
		wanted[filepath.ToSlash(d)] = true // the form Claude Code writes on Windows
	}
	// The projects are walked on the way through: the object is most of the file.
	var projects []jsonMember
	var projectsErr error
	walk := func(name string, start int) (int, error) {
		if name != "projects" || start >= len(data) || data[start] != '{' {
			return skipValue(data, start)
		}
		ms, end, err := jsonObject(data, start, func(k string) bool { return wanted[k] }, nil)
		if err == nil && projects != nil {
			projectsErr = hp.parser.errf("projects", "duplicate key")
		}
		projects = ms
		if projects == nil {
			projects = []jsonMember{}
		}
		return end, err
	}
	top, end, err := jsonObject(data, start, func(k string) bool { return k == "mcpServers" || k == "projects" }, walk)
	if err == nil && skipSpace(data, end) < len(data) {
		end, err = skipSpace(data, end), fmt.Errorf("unexpected text after the top-level object")
	}
	if err != nil {
		dr.warn(hp.syntax(data, end, err.Error()))
		return cs
	}
	if dup := duplicate(top); dup != "" {
		projectsErr = hp.parser.errf(dup, "duplicate key")
	}
	if projectsErr != nil {
		dr.warn(projectsErr)
		return cs
	}
	for _, m := range top {
		raw := json.RawMessage(data[m.start:m.end])
		switch {
		case kind(raw) == "null":
		case m.name == "mcpServers":
			servers, err := hp.servers("mcpServers", raw)
			if err != nil {
				dr.warn(err)
			}
			cs.user = servers
		case m.name == "projects":
			cs.local = dr.claudeProjects(hp, data, projects, dirs, &cs)
		}
	}
	return cs
}

// duplicate is the first name ms has twice, or "".
func duplicate(ms []jsonMember) string {
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.name] {
			return m.name
		}
		seen[m.name] = true
	}
	return ""
}

// claudeProjects reads the entries of ~/.claude.json's "projects" for the
// folders of dirs: their approvals, and the local servers of the nearest.
func (dr *discoverer) claudeProjects(hp *hostParser, data []byte, members []jsonMember, dirs []string, cs *claudeState) []*Server {
	if dup := duplicate(members); dup != "" {
		dr.warn(hp.parser.errf("projects["+dup+"]", "duplicate key"))
		return nil
	}
	entries := map[string]json.RawMessage{}
	for _, p := range members {
		if raw := json.RawMessage(data[p.start:p.end]); kind(raw) == "an object" {
			entries[filepath.FromSlash(p.name)] = raw
		}
	}
	var local []*Server
	found := false
	for _, d := range dirs {
		entry, ok := entries[d]
		if !ok {
			continue
		}
		a := &claudeApproval{}
		a.add(entry)
		cs.approvals[d] = a
		if found {
			continue
		}
		found = true
		key := "projects[" + d + "]"
		ms, err := hp.object(key, entry, func(k string) bool { return k == "mcpServers" })
		if err != nil {
			dr.warn(err)
			continue
		}
		for _, m := range ms {
			if m.name != "mcpServers" || kind(m.value) == "null" {
				continue
			}
			lp := newHostParser(HostClaudeCode, ScopeLocal, hp.file, d, d, dr.places.home, dr.getenv)
			if local, err = lp.servers(key+".mcpServers", m.value); err != nil {
				dr.warn(err)
			}
		}
	}
	return local
}

// projectFile reads one file of a project folder.
func (dr *discoverer) projectFile(h Host, path, folder string, cs *claudeState) []*Server {
	data := dr.read(path)
	if data == nil {
		return nil
	}
	hp := newHostParser(h, ScopeProject, path, folder, folder, dr.places.home, dr.getenv)
	servers, top, err := hp.parseFile(data)
	if err != nil {
		dr.warn(err)
		return nil
	}
	var trustedFolder bool
	var rules geminiMCP
	var hasAllowed bool
	if h == HostGemini {
		trustedFolder = dr.geminiTrusts(folder)
		rules, hasAllowed = geminiRules(top)
	}
	for _, s := range servers {
		if s.Origin.Held != "" {
			continue
		}
		switch h {
		case HostClaudeCode:
			s.Origin.Held = cs.approval(folder).hold(s.Name)
		case HostGemini:
			if s.Origin.Held = rules.hold(s.Name, hasAllowed); s.Origin.Held == "" && !trustedFolder {
				s.Origin.Held = notApproved(h) + " (trust the folder in Gemini CLI)"
			}
		default:
			// Cursor and VS Code keep their approvals where mcpsh cannot read them.
			s.Origin.Held = notApproved(h)
		}
	}
	return servers
}

// geminiTrusts reads ~/.gemini/trustedFolders.json for folder.
func (dr *discoverer) geminiTrusts(folder string) bool {
	data := dr.read(dr.places.geminiTrust())
	var rules map[string]string
	if data == nil || json.Unmarshal(data, &rules) != nil {
		return false
	}
	return geminiTrusted(rules, folder)
}

// userFile reads one of the user's files. A user file's ${workspaceFolder}
// is the project's root: the folder the user works in.
func (dr *discoverer) userFile(uf userFile) []*Server {
	data := dr.read(uf.path)
	if data == nil {
		return nil
	}
	hp := newHostParser(uf.host, ScopeUser, uf.path, "", dr.c.Root, dr.places.home, dr.getenv)
	if uf.host == HostCodex {
		servers, err := hp.codexServers(data)
		if err != nil {
			dr.warn(err)
		}
		return servers
	}
	servers, top, err := hp.parseFile(data)
	if err != nil {
		dr.warn(err)
		return nil
	}
	if uf.host == HostGemini {
		rules, hasAllowed := geminiRules(top)
		for _, s := range servers {
			if s.Origin.Held == "" {
				s.Origin.Held = rules.hold(s.Name, hasAllowed)
			}
		}
	}
	return servers
}
