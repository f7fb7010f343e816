package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// checkBaseline refuses what a baseline cannot go with, and reads
// --baseline's file: a file that is missing or not a baseline is a usage
// error, before anything is sent.
func (opts *auditOptions) checkBaseline() error {
	if opts.saveBaseline == "" && opts.baseline == "" {
		return nil
	}
	flag := "--baseline"
	if opts.saveBaseline != "" {
		flag = "--save-baseline"
	}
	switch {
	case opts.saveBaseline != "" && opts.baseline != "":
		return &usageError{"--save-baseline and --baseline: save a baseline, or check against one"}
	case opts.all:
		return &usageError{flag + " and --all: a baseline is one server's; name it"}
	case opts.probe:
		return &usageError{flag + " and --probe: a baseline pins declarations; probe in a run of its own"}
	case opts.saveBaseline != "" && opts.format != "text":
		return &usageError{"--save-baseline writes the baseline file; --format and --json are for reports"}
	}
	if opts.baseline == "" {
		return nil
	}
	data, err := os.ReadFile(opts.baseline)
	if err != nil {
		return &usageError{fmt.Sprintf("--baseline %s: %v", opts.baseline, unwrapPath(err))}
	}
	if opts.base, err = audit.ReadBaseline(opts.baseline, data); err != nil {
		return &usageError{"--baseline " + err.Error()}
	}
	return nil
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// writeBaseline writes the server's baseline to --save-baseline's file,
// whole or not at all (a temporary file renamed over it), and says so.
func (opts *auditOptions) writeBaseline(sv *audited) error {
	f := opts.f
	b := audit.NewBaseline(sv.name, sv.report.Tools)
	var buf bytes.Buffer
	if err := audit.WriteBaseline(&buf, b); err != nil {
		return err
	}
	dir, name := filepath.Split(opts.saveBaseline)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return fmt.Errorf("--save-baseline %s: %w", opts.saveBaseline, unwrapPath(err))
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("--save-baseline %s: %w", opts.saveBaseline, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("--save-baseline %s: %w", opts.saveBaseline, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("--save-baseline %s: %w", opts.saveBaseline, err)
	}
	if err := os.Rename(tmp.Name(), opts.saveBaseline); err != nil {
		return fmt.Errorf("--save-baseline %s: %w", opts.saveBaseline, unwrapPath(err))
	}
	fmt.Fprintf(f.io.ErrOut, "mcpsh: saved the baseline of %s's %d tools to %s; check against it with: mcpsh audit --baseline %s\n",
		termtext.Line(sv.name), len(b.Tools), opts.saveBaseline, opts.saveBaseline)
	return nil
}

// compareBaseline replaces the server's audit findings with what changed
// since the baseline: a baseline check is the question of a run of its own.
func (opts *auditOptions) compareBaseline(sv *audited) {
	if sv.report == nil {
		return
	}
	if opts.base.Server != "" && opts.base.Server != sv.name {
		opts.f.warn(fmt.Sprintf("the baseline %s was saved for %s; comparing %s with it", opts.baseline, termtext.Line(opts.base.Server), termtext.Line(sv.name)))
	}
	sv.report.Findings = audit.CompareBaseline(opts.base, sv.report.Tools)
}
