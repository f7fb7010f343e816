package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/hostedit"
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

// proxyConfigOptions are mcpsh proxy config's flags and argument. It embeds
// the factory, so that its helpers read the shared streams and config as
// they did when they were the factory's.
type proxyConfigOptions struct {
	*factory
	flags proxyConfigFlags
	args  []string // HOST:NAME, or none (an error that lists them)
}

func newProxyConfigCmd(a *factory, runF func(context.Context, *proxyConfigOptions) error) *cobra.Command {
	opts := &proxyConfigOptions{factory: a}
	f := &opts.flags
	cmd := &cobra.Command{
		Use:   "config HOST:NAME [--write | --undo]",
		Short: "Print, write or undo the host entry that routes a server through mcpsh",
		Long:  proxyConfigHelp,
		Example: `  mcpsh proxy config cursor:github
  mcpsh proxy config cursor:github --write
  mcpsh proxy config codex:figma --write --yes --json
  mcpsh proxy config cursor:github --undo`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.args = args
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return proxyConfigRun(cmd.Context(), opts)
		},
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

// proxyConfigRun prints, writes or undoes the host entry opts names.
func proxyConfigRun(ctx context.Context, opts *proxyConfigOptions) error {
	return opts.proxyConfig(ctx, opts.args, &opts.flags)
}

func (a *proxyConfigOptions) proxyConfig(ctx context.Context, args []string, f *proxyConfigFlags) error {
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
func (a *proxyConfigOptions) proxyRef(args []string, f *proxyConfigFlags) (string, error) {
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
func (a *proxyConfigOptions) proxyUnknown(ref string, err error) error {
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
func (a *proxyConfigOptions) planProxyEntry(srv *config.Server, o hostedit.Options) (*proxyEdit, error) {
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
func (a *proxyConfigOptions) planClaudeOverride(pe *proxyEdit, o hostedit.Options) (*proxyEdit, error) {
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
func (a *proxyConfigOptions) mcpshCommand(given string) (string, error) {
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
func (a *proxyConfigOptions) short(path string) string {
	return config.ShortPath(path, a.target.found.Home)
}
