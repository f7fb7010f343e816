package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/hostedit"
	"github.com/mcpsh/mcpsh/internal/paths"
	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// What mcpsh proxy config shows and writes (proxyconfig.go finds the
// server and makes the edit): the entry, the diff, the question, the
// backup and record, the write, and --undo.

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

func (a *proxyConfigOptions) proxyJSON(pe *proxyEdit) *proxyConfigJSON {
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
func (a *proxyConfigOptions) showProxyEntry(pe *proxyEdit, f *proxyConfigFlags) error {
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
func (a *proxyConfigOptions) writeProxyEntry(ctx context.Context, pe *proxyEdit, f *proxyConfigFlags) error {
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
	rec, err := store.Backup(p, pe.file, currentVersion().String(), time.Now())
	if err != nil {
		return fmt.Errorf("cannot keep the backup of %s (%v); nothing written", a.short(p.File), err)
	}
	if err := pe.snap.Replace(p.New); err != nil {
		return fmt.Errorf("%v; nothing written", err)
	}
	// Only now: a record of an edit that was not made would stand in for
	// the entry's last one, which --undo may still need.
	if err := store.Keep(rec); err != nil {
		return fmt.Errorf("wrote %s, but cannot keep the record --undo reads (%v); the file as it was is in %s", a.short(p.File), err, a.short(rec.Backup))
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
func (a *proxyConfigOptions) proxyWarnings(pe *proxyEdit) []string {
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
func (a *proxyConfigOptions) confirmEdit(ctx context.Context, p *hostedit.Plan, f *proxyConfigFlags) (string, error) {
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
func (a *proxyConfigOptions) printDiff(w io.Writer, diff string, colour bool) {
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
func (a *proxyConfigOptions) proxyStore() (hostedit.Store, error) {
	dir, err := paths.StateDir(a.getenv)
	if err != nil {
		return hostedit.Store{}, fmt.Errorf("cannot place the backup: %w", err)
	}
	return hostedit.NewStore(dir), nil
}

// proxyUndo puts back what --write replaced.
func (a *proxyConfigOptions) proxyUndo(ctx context.Context, ref string, f *proxyConfigFlags) error {
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
	if len(recs) == 0 {
		return &usageError{fmt.Sprintf("mcpsh has no record of writing %s:%s's entry (in %s); nothing to undo", host, termtext.Line(name), a.short(store.Dir))}
	}
	rec, err := a.undoRecord(recs, srv, host+":"+name)
	if err != nil {
		return err
	}
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

// undoRecord is the record --undo restores, of the records of ref's
// entries (newest first): of the entry in the file ref resolves to now,
// else (its entry is gone, or mcpsh did not write it) of the host's files
// this folder reads: the user's, this project's, Claude Code's entries
// for this folder. One entry's newest record, never the newest of
// several entries: undoing another file's entry would be a guess.
func (a *proxyConfigOptions) undoRecord(recs []*hostedit.Record, srv *config.Server, ref string) (*hostedit.Record, error) {
	cwd, _ := a.getwd()
	var here []*hostedit.Record
	for _, r := range recs {
		if recordApplies(r, cwd) {
			here = append(here, r)
		}
	}
	if srv != nil {
		for _, r := range here {
			if r.File == srv.Origin.File {
				return r, nil
			}
		}
	}
	var places []string
	seen := map[string]bool{}
	for _, r := range here {
		if p := a.short(r.File) + " (" + r.Key + ")"; !seen[p] {
			seen[p] = true
			places = append(places, termtext.Line(p))
		}
	}
	switch len(places) {
	case 1:
		return here[0], nil
	case 0:
		for _, r := range recs {
			places = append(places, termtext.Line(a.short(r.File)+" ("+r.Key+")"))
		}
		return nil, &usageError{fmt.Sprintf("mcpsh's records of writing %s's entry are for other folders (%s); run --undo in the folder the entry is for",
			termtext.Line(ref), strings.Join(slices.Compact(places), ", "))}
	}
	return nil, &usageError{fmt.Sprintf("mcpsh wrote %s's entry in %d places this folder reads (%s), and %s resolves to none of them: mcpsh does not guess which to undo; each file as it was is in %s",
		termtext.Line(ref), len(places), strings.Join(places, ", "), termtext.Line(ref), a.short(filepath.Dir(here[0].Backup)))}
}

// recordApplies reports whether a record's entry is one a host reads in
// dir: a user's file, a project's that dir is in, or Claude Code's entry
// for a folder dir is in.
func recordApplies(r *hostedit.Record, dir string) bool {
	in := func(root string) bool {
		rel, err := filepath.Rel(root, dir)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	switch {
	case len(r.KeyPath) == 4 && r.KeyPath[0] == "projects":
		return in(filepath.FromSlash(r.KeyPath[1]))
	case r.Scope == config.ScopeProject:
		return in(r.Project)
	}
	return true
}
