package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/hostedit"
	"github.com/mcpsh/mcpsh/internal/paths"
	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
)

const proxyConfigHelp = `Print the entry that makes a host run one of its servers through mcpsh
(mcpsh proxy), in the host's own syntax, for a server configured in Claude
Desktop, Claude Code, Cursor, VS Code, Windsurf, Codex or Gemini CLI (see
mcpsh servers). HOST:NAME picks it as -s does.

The entry keeps the server's command after "--" (a remote server's URL after
--url or --sse, its headers moved into env and named by --header-env, so no
secret is on the proxy's command line) and every other key as written; the
host still expands its variables. The file and key are said on stderr.

--write edits the host's file in place, changing only that entry: it shows
the diff and asks (on a terminal; else it needs --yes), checks the file reads
the same but for the entry, keeps the whole file as it was and a record of
the entry in mcpsh's state folder, and replaces the file in one rename, only
if nobody wrote it meanwhile. A project's .mcp.json is the repository's:
Claude Code's server there gets a local entry in ~/.claude.json instead,
which Claude Code prefers.

--undo puts the original entry back, only while the entry is still what mcpsh
wrote (--force puts it back anyway).

The diff shows the lines that change as they are; in the lines around them,
values that look secret are shown as [redacted].`

// proxyConfigFlags are mcpsh proxy config's own flags.
type proxyConfigFlags struct {
	write, undo, yes, force, asJSON bool
	command                         string
}

func (a *app) proxyConfigCmd() *cobra.Command {
	var f proxyConfigFlags
	cmd := &cobra.Command{
		Use:   "config HOST:NAME [--write | --undo]",
		Short: "Print, write or undo the host entry that routes a server through mcpsh",
		Long:  proxyConfigHelp,
		Example: `  mcpsh proxy config cursor:github
  mcpsh proxy config cursor:github --write
  mcpsh proxy config codex:figma --write --yes --json
  mcpsh proxy config cursor:github --undo`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.proxyConfig(cmd.Context(), args, &f) },
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.write, "write", false, "edit the host's file: show the diff, ask, keep a backup, write")
	fs.BoolVar(&f.undo, "undo", false, "put back the entry --write replaced, while it is still what mcpsh wrote")
	fs.BoolVar(&f.yes, "yes", false, "write without asking (needed where there is no terminal to ask on)")
	fs.BoolVar(&f.force, "force", false, "with --undo: put the original back even though the entry changed since")
	fs.BoolVar(&f.asJSON, "json", false, "print {host, ref, file, key, before, after} as JSON (and diff, backup, record once written)")
	fs.StringVar(&f.command, "command", "", "the mcpsh `PATH` the host runs (default: this mcpsh, by its $PATH name when that is this binary)")
	return cmd
}

// proxyEdit is one run of mcpsh proxy config: the server, the edit, and
// how its file is read and checked.
type proxyEdit struct {
	srv    *config.Server
	ref    string
	plan   *hostedit.Plan
	snap   *hostedit.Snapshot
	file   config.HostFile
	expect hostedit.Expect
	// from is the project's .mcp.json a Claude Code local entry stands in for.
	from *config.Server
}

func (a *app) proxyConfig(ctx context.Context, args []string, f *proxyConfigFlags) error {
	ref, err := a.proxyRef(args, f)
	if err != nil {
		return err
	}
	if _, err := a.loadConfig(); err != nil {
		return err
	}
	if f.undo {
		return a.proxyUndo(ctx, ref, f)
	}
	c := a.target.found
	srv, _, rerr := c.Resolve(ref)
	switch {
	case srv == nil:
		return a.proxyUnknown(ref, rerr)
	case srv.Origin.Host == config.HostMcpsh:
		return &usageError{fmt.Sprintf("%s is in mcpsh's own config, in no host's file: a host runs it through mcpsh with the entry mcpsh proxy -s %s", termtext.Line(srv.Ref()), termtext.Line(srv.Name))}
	case srv.Proxied:
		fmt.Fprintf(a.io.ErrOut, "mcpsh: %s runs through mcpsh proxy already (%s in %s); mcpsh proxy config %s --undo puts the original back\n",
			termtext.Line(srv.Ref()), termtext.Line(srv.Key), termtext.Line(a.short(srv.Origin.File)), termtext.Line(srv.Ref()))
		return nil
	case srv.Transport == "":
		return srv.Err // an entry too malformed to rewrite; its error names the file and key
	}
	command, err := a.mcpshCommand(f.command)
	if err != nil {
		return err
	}
	o := hostedit.Options{Command: command, As: srv.Ref(), Transport: srv.Transport}
	pe, err := a.planProxyEntry(srv, o)
	if err != nil {
		return err
	}
	if err := hostedit.Check(pe.file, pe.plan, pe.expect); err != nil {
		return err
	}
	if !f.write {
		return a.showProxyEntry(pe, f)
	}
	return a.writeProxyEntry(ctx, pe, f)
}

// proxyRef is the server named: HOST:NAME, or -s's.
func (a *app) proxyRef(args []string, f *proxyConfigFlags) (string, error) {
	t := &a.target
	switch {
	case f.write && f.undo:
		return "", &usageError{"--write and --undo: choose one"}
	case f.force && !f.undo:
		return "", &usageError{"--force goes with --undo"}
	case f.yes && !f.write && !f.undo:
		return "", &usageError{"--yes goes with --write or --undo"}
	case t.demo || t.url != "" || t.sse != "" || t.as != "" || len(t.headerEnv) > 0 || t.bearerEnv != "" || len(t.headers) > 0:
		return "", &usageError{"mcpsh proxy config takes a configured server, HOST:NAME, not a target flag"}
	case len(args) == 1 && t.server != "":
		return "", &usageError{"name the server once: HOST:NAME or -s HOST:NAME"}
	case len(args) == 1:
		return args[0], nil
	case t.server != "":
		return t.server, nil
	}
	return "", &usageError{"name the server to route through mcpsh: mcpsh proxy config HOST:NAME (see mcpsh servers)"}
}

// proxyUnknown is the error for a server -s would not find, saying so when
// the host is not one mcpsh knows.
func (a *app) proxyUnknown(ref string, err error) error {
	if h, _, ok := strings.Cut(ref, ":"); ok {
		if _, known := config.ParseHost(h); !known {
			var hosts []string
			for _, h := range config.Hosts[1:] {
				hosts = append(hosts, string(h))
			}
			return &usageError{fmt.Sprintf("unknown host %q in %s (want one of %s)", h, ref, strings.Join(hosts, ", "))}
		}
	}
	var unread []string
	for _, w := range a.target.found.Warnings {
		if w.File != "" {
			unread = append(unread, a.short(w.File))
		}
	}
	if len(unread) > 0 {
		return fmt.Errorf("%w; mcpsh could not read %s (see above)", err, strings.Join(unread, ", "))
	}
	return err
}

// planProxyEntry reads the server's file and makes the edit: in place, or
// for Claude Code's project file, a local entry in ~/.claude.json.
func (a *app) planProxyEntry(srv *config.Server, o hostedit.Options) (*proxyEdit, error) {
	pe := &proxyEdit{srv: srv, ref: srv.Ref(), expect: hostedit.Wrapped(nil)}
	home := a.target.found.Home
	if srv.Origin.Host == config.HostClaudeCode && srv.Origin.Scope == config.ScopeProject {
		return a.planClaudeOverride(pe, o)
	}
	snap, err := readHostFile(srv.Origin.File)
	if err != nil {
		return nil, err
	}
	pe.snap = snap
	pe.file = config.HostFile{Host: srv.Origin.Host, Scope: srv.Origin.Scope, Path: srv.Origin.File, Home: home}
	if srv.Origin.Scope == config.ScopeProject {
		pe.file.Project = srv.Origin.Project
	}
	project := srv.Origin.Project
	if srv.Origin.Scope == config.ScopeLocal {
		pe.file.Scope = config.ScopeUser // ~/.claude.json, read whole
		if _, err := config.EntrySpan(snap.Path, snap.Data, []string{"projects", project}); errors.Is(err, config.ErrNoEntry) {
			project = filepath.ToSlash(project) // as Claude Code writes it on Windows
		}
	}
	path := hostedit.Path(srv.Origin.Host, srv.Origin.Scope, project, srv.Name)
	pe.plan, err = hostedit.Wrap(srv.Origin.Host, snap.Path, snap.Data, path, o)
	return pe, err
}

// planClaudeOverride makes the local entry that stands in for a server of
// the project's .mcp.json.
func (a *app) planClaudeOverride(pe *proxyEdit, o hostedit.Options) (*proxyEdit, error) {
	srv := pe.srv
	src, err := readHostFile(srv.Origin.File)
	if err != nil {
		return nil, err
	}
	home := a.target.found.Home
	servers, err := config.ReadHostFile(config.HostFile{Host: config.HostClaudeCode, Scope: config.ScopeProject,
		Path: src.Path, Project: srv.Origin.Project, Home: home}, src.Data, hostedit.CheckEnv)
	if err != nil {
		return nil, err
	}
	for _, s := range servers {
		if s.Name == srv.Name {
			pe.from = s
		}
	}
	if pe.from == nil {
		return nil, &config.Error{File: src.Path, Key: srv.Key, Msg: config.ErrNoEntry.Error()}
	}
	file := config.ClaudeCodeFile(a.getenv)
	snap, err := readHostFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, &config.Error{File: file, Msg: "does not exist: run Claude Code once, and mcpsh adds the local entry to the file it makes", Err: err}
	}
	if err != nil {
		return nil, err
	}
	pe.snap = snap
	pe.file = config.HostFile{Host: config.HostClaudeCode, Scope: config.ScopeUser, Path: file, Home: home}
	pe.expect = hostedit.Wrapped(pe.from)
	pe.plan, err = hostedit.Override(file, snap.Data, srv.Origin.Project, srv.Name, src.Path, src.Data, o)
	return pe, err
}

// readHostFile reads a host's file for an edit; a problem names the file.
func readHostFile(path string) (*hostedit.Snapshot, error) {
	snap, err := hostedit.Read(path)
	if err != nil {
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			return nil, &config.Error{File: path, Msg: pe.Err.Error(), Err: err}
		}
		return nil, &config.Error{File: path, Msg: strings.TrimPrefix(err.Error(), path+" "), Err: err}
	}
	return snap, nil
}

// The program the host starts: tests set these.
var (
	executable = os.Executable
	lookPath   = exec.LookPath
)

// mcpshCommand is the mcpsh the entry runs: --command's, else this binary,
// by its $PATH name when that is this binary (a path that survives an
// upgrade that moves the binary behind it), else by where it is.
func (a *app) mcpshCommand(given string) (string, error) {
	if given != "" {
		if !config.IsMcpsh(given) {
			return "", &usageError{fmt.Sprintf("--command %q: the entry must run a program called mcpsh (mcpsh.exe on Windows): that is how mcpsh knows its own entries", given)}
		}
		if !filepath.IsAbs(given) {
			a.warn(fmt.Sprintf("--command %s is not an absolute path: a host started from the desktop may not find it", given))
		} else if _, err := os.Stat(given); err != nil {
			a.warn(fmt.Sprintf("--command %s: %v", given, errors.Unwrap(err)))
		}
		return given, nil
	}
	exe, err := executable()
	if err != nil {
		return "", fmt.Errorf("cannot tell where this mcpsh is (%v): pass --command PATH", err)
	}
	if p, err := lookPath("mcpsh"); err == nil && filepath.IsAbs(p) {
		pi, perr := os.Stat(p)
		ei, eerr := os.Stat(exe)
		if perr == nil && eerr == nil && os.SameFile(pi, ei) {
			return p, nil
		}
	}
	if !config.IsMcpsh(exe) {
		return "", &usageError{fmt.Sprintf("this program is %s, not mcpsh: pass --command PATH, the mcpsh the host should run", exe)}
	}
	return exe, nil
}

// short writes a path under the home folder as ~/...
func (a *app) short(path string) string { return config.ShortPath(path, a.target.found.Home) }

// shownDiff is a diff of a host's file as it may be shown: safe for a
// terminal (a cloned repository's file may hold escapes in its comments),
// and its context lines, which are not the entry and need no review, with
// what looks secret redacted (~/.claude.json keeps an API key near its
// servers). The lines that change are shown as they are: a diff that hides
// what is written cannot be checked.
func shownDiff(diff string) string {
	lines := strings.SplitAfter(diff, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, " ") {
			l = redact.Text(l)
		}
		lines[i] = termtext.Sanitize(l)
	}
	return strings.Join(lines, "")
}

// proxyConfigJSON is --json's output.
type proxyConfigJSON struct {
	Host string `json:"host"`
	Ref  string `json:"ref"`
	File string `json:"file"`
	Key  string `json:"key"`
	// Before and After are the entry's text; null where there is none
	// (the local entry Claude Code gets is new, --undo takes it out).
	Before *string `json:"before"`
	After  *string `json:"after"`
	// Overrides is the project's entry a Claude Code local entry stands in for.
	Overrides *proxyOverridesJSON `json:"overrides,omitempty"`
	Diff      string              `json:"diff,omitempty"`
	Written   bool                `json:"written"`
	Backup    string              `json:"backup,omitempty"`
	Record    string              `json:"record,omitempty"`
}

type proxyOverridesJSON struct {
	File string `json:"file"`
	Key  string `json:"key"`
}

func (a *app) proxyJSON(pe *proxyEdit) *proxyConfigJSON {
	p := pe.plan
	text := func(b []byte) *string {
		if len(b) == 0 {
			return nil
		}
		s := string(b)
		return &s
	}
	j := &proxyConfigJSON{Host: string(p.Host), Ref: pe.ref, File: p.File, Key: p.Key(), Before: text(p.Original), After: text(p.Written)}
	if pe.from != nil {
		j.Overrides = &proxyOverridesJSON{File: pe.srv.Origin.File, Key: pe.srv.Key}
	}
	return j
}

// showProxyEntry prints the entry (stdout) and where it goes (stderr).
func (a *app) showProxyEntry(pe *proxyEdit, f *proxyConfigFlags) error {
	if f.asJSON {
		return writeJSON(a.io.Out, a.proxyJSON(pe))
	}
	p := pe.plan
	fmt.Fprint(a.io.Out, termtext.Sanitize(string(hostedit.Snippet(p))))
	line := termtext.Line
	if pe.from != nil {
		fmt.Fprintf(a.io.ErrOut, "mcpsh: %s is %s in %s, which the repository shares; Claude Code prefers a local entry for %s, %s in %s:\n",
			line(pe.ref), line(pe.srv.Key), line(a.short(pe.srv.Origin.File)), line(a.short(pe.srv.Origin.Project)), line(p.Key()), line(a.short(p.File)))
	} else {
		fmt.Fprintf(a.io.ErrOut, "mcpsh: %s is %s in %s; this entry in its place routes it through mcpsh:\n",
			line(pe.ref), line(p.Key()), line(a.short(p.File)))
	}
	fmt.Fprintf(a.io.ErrOut, "mcpsh: mcpsh proxy config %s --write puts it there\n", line(pe.ref))
	return nil
}

// writeProxyEntry shows the diff, asks, keeps the backup and the record,
// and writes.
func (a *app) writeProxyEntry(ctx context.Context, pe *proxyEdit, f *proxyConfigFlags) error {
	p := pe.plan
	for _, w := range a.proxyWarnings(pe) {
		a.warn(w)
	}
	diff, err := a.confirmEdit(ctx, p, f)
	if err != nil {
		return err
	}
	store, err := a.proxyStore()
	if err != nil {
		return err
	}
	rec, err := store.Save(p, pe.file, currentVersion().String(), time.Now())
	if err != nil {
		return fmt.Errorf("cannot keep the backup and record of %s (%v); nothing written", a.short(p.File), err)
	}
	if err := pe.snap.Replace(p.New); err != nil {
		store.Remove(rec)
		return fmt.Errorf("%v; nothing written", err)
	}
	if f.asJSON {
		j := a.proxyJSON(pe)
		j.Diff, j.Written, j.Backup, j.Record = shownDiff(diff), true, rec.Backup, rec.Path()
		if err := writeJSON(a.io.Out, j); err != nil {
			return err
		}
	}
	line := termtext.Line
	e := a.io.ErrOut
	fmt.Fprintf(e, "mcpsh: wrote %s: %s runs %s through mcpsh now (restart it, or reload its MCP servers)\n",
		line(a.short(p.File)), p.Host, line(pe.srv.Name))
	fmt.Fprintf(e, "mcpsh: the file as it was is in %s; mcpsh proxy config %s --undo puts the entry back\n", line(a.short(rec.Backup)), line(pe.ref))
	if pe.srv.Transport != config.Stdio {
		fmt.Fprintf(e, "mcpsh: mcpsh keeps its own login: if %s asks you to log in, run mcpsh login -s %s once\n", line(pe.ref), line(shellWord(pe.ref)))
	}
	if p.Host == config.HostClaudeCode {
		where := ""
		if len(p.Path) == 4 { // a local entry: claude mcp add-json -s local adds it for the folder it runs in
			where = " (run in " + line(a.short(filepath.FromSlash(p.Path[1]))) + ")"
		}
		fmt.Fprintf(e, "mcpsh: Claude Code rewrites ~/.claude.json while it runs and may put its own copy back; if the entry is gone once it exits, this does the same%s:\n", where)
		fmt.Fprintf(e, "  %s\n", line(hostedit.ClaudeHint(p)))
	}
	return nil
}

// proxyWarnings are what to know before writing.
func (a *app) proxyWarnings(pe *proxyEdit) []string {
	var out []string
	s := pe.srv
	if pe.from != nil && s.Origin.Held != "" {
		out = append(out, fmt.Sprintf("%s is held (%s); the local entry runs it in Claude Code without asking", termtext.Line(pe.ref), termtext.Line(s.Origin.Held)))
	}
	if s.Origin.Scope == config.ScopeProject && pe.from == nil {
		out = append(out, fmt.Sprintf("%s is the project's, shared with whoever uses the repository: the entry names this machine's mcpsh", termtext.Line(a.short(s.Origin.File))))
	}
	if s.Transport != config.Stdio && redact.URL(s.URL) != s.URL {
		out = append(out, fmt.Sprintf("%s's URL holds what looks like a secret, which the proxy's command line shows every local user", termtext.Line(pe.ref)))
	}
	return out
}

// confirmEdit prints the diff (on stderr under --json) and asks, or takes
// --yes; without either, nothing is written.
func (a *app) confirmEdit(ctx context.Context, p *hostedit.Plan, f *proxyConfigFlags) (string, error) {
	label := a.short(p.File)
	diff := hostedit.Diff(label, label, p.Old, p.New)
	out := a.io.Out
	if f.asJSON {
		out = a.io.ErrOut
	}
	a.printDiff(out, diff, !f.asJSON && a.io.Color || f.asJSON && a.io.ColorErr)
	if f.yes {
		return diff, nil
	}
	if !a.canAsk(&callFlags{}) {
		fmt.Fprintln(a.io.ErrOut, "mcpsh: nothing written: there is no terminal to ask on; pass --yes to write it")
		return "", &exitError{ExitRefused}
	}
	fmt.Fprint(a.io.ErrOut, "Write it? [y/N] ")
	answer, err := a.readLine(ctx)
	if err != nil {
		fmt.Fprintln(a.io.ErrOut)
		return "", err
	}
	if ans := strings.ToLower(strings.TrimSpace(answer)); ans != "y" && ans != "yes" {
		fmt.Fprintln(a.io.ErrOut, "mcpsh: nothing written")
		return "", &exitError{ExitRefused}
	}
	return diff, nil
}

// printDiff writes a unified diff, coloured on a terminal.
func (a *app) printDiff(w io.Writer, diff string, colour bool) {
	p := a.pal()
	for _, l := range strings.SplitAfter(shownDiff(diff), "\n") {
		if l == "" {
			continue
		}
		body, nl := strings.TrimSuffix(l, "\n"), l[len(strings.TrimSuffix(l, "\n")):]
		switch {
		case !colour:
		case strings.HasPrefix(body, "+++"), strings.HasPrefix(body, "---"):
			body = p.Strong(body)
		case strings.HasPrefix(body, "+"):
			body = p.Good(body)
		case strings.HasPrefix(body, "-"):
			body = p.Bad(body)
		case strings.HasPrefix(body, "@@"):
			body = p.Muted(body)
		}
		fmt.Fprint(w, body+nl)
	}
}

// proxyStore is where backups and records go.
func (a *app) proxyStore() (hostedit.Store, error) {
	dir, err := paths.StateDir(a.getenv)
	if err != nil {
		return hostedit.Store{}, fmt.Errorf("cannot place the backup: %w", err)
	}
	return hostedit.NewStore(dir), nil
}

// proxyUndo puts back what --write replaced.
func (a *app) proxyUndo(ctx context.Context, ref string, f *proxyConfigFlags) error {
	c := a.target.found
	srv, _, _ := c.Resolve(ref)
	host, name, known := "", ref, false
	if h, n, ok := strings.Cut(ref, ":"); ok {
		if hh, ok := config.ParseHost(h); ok {
			host, name, known = string(hh), n, true
		}
	}
	if srv != nil {
		host, name, known = string(srv.Origin.Host), srv.Name, true
	}
	if !known {
		return &usageError{fmt.Sprintf("%s: name the server as HOST:NAME (cursor:github)", ref)}
	}
	store, err := a.proxyStore()
	if err != nil {
		return err
	}
	recs, err := store.Find(config.Host(host), name)
	if err != nil {
		return err
	}
	if srv != nil {
		var same []*hostedit.Record
		for _, r := range recs {
			if r.File == srv.Origin.File {
				same = append(same, r)
			}
		}
		if len(same) > 0 {
			recs = same
		}
	}
	if len(recs) == 0 {
		return &usageError{fmt.Sprintf("mcpsh has no record of writing %s:%s's entry (in %s); nothing to undo", host, termtext.Line(name), a.short(store.Dir))}
	}
	rec := recs[0] // the newest
	snap, err := readHostFile(rec.File)
	if err != nil {
		return err
	}
	p, err := hostedit.Undo(rec, snap.Data, f.force)
	if err != nil {
		return err
	}
	if err := hostedit.Check(rec.HostFile(c.Home), p, hostedit.Unwrapped(rec.Original == "", f.force)); err != nil {
		return err
	}
	diff, err := a.confirmEdit(ctx, p, f)
	if err != nil {
		return err
	}
	if err := snap.Replace(p.New); err != nil {
		return fmt.Errorf("%v; nothing written", err)
	}
	if err := store.Remove(rec); err != nil {
		a.warn("the record stays: " + err.Error())
	}
	if f.asJSON {
		pe := &proxyEdit{plan: p, ref: rec.Ref()}
		j := a.proxyJSON(pe)
		j.Diff, j.Written, j.Backup, j.Record = shownDiff(diff), true, rec.Backup, rec.Path()
		if err := writeJSON(a.io.Out, j); err != nil {
			return err
		}
	}
	what := "put back as it was"
	if rec.Original == "" {
		what = "taken out"
	}
	fmt.Fprintf(a.io.ErrOut, "mcpsh: %s: %s %s (restart %s, or reload its MCP servers); the backup stays in %s\n",
		termtext.Line(a.short(rec.File)), termtext.Line(rec.Key), what, rec.Host, termtext.Line(a.short(rec.Backup)))
	return nil
}
