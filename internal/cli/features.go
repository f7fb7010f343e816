package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// logLevels are the syslog levels of logging/setLevel, lowest first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// prepareFeatures checks the flags that shape what mcpsh offers the server,
// before anything starts: --protocol, --root, --server-log and --elicit.
func (a *app) prepareFeatures(t client.Target) error {
	if err := client.ValidateProtocol(a.target.protocol); err != nil {
		return &usageError{"--protocol: " + err.Error()}
	}
	if l := a.target.serverLog; l != "" && !slices.Contains(logLevels, l) {
		return &usageError{fmt.Sprintf("--server-log %q: want one of %s", l, strings.Join(logLevels, ", "))}
	}
	roots, err := a.rootsFor(t)
	if err != nil {
		return err
	}
	a.roots = roots
	if a.logs.trace != "" && a.trace == nil {
		tf, err := openTrace(a.logs.trace)
		if err != nil {
			return err
		}
		a.trace = tf
	}
	e, err := newElicitor(a.target.elicit, a.warn)
	if err != nil {
		return &usageError{"--elicit: " + err.Error()}
	}
	// Declining everything is not offering elicitation: the capability is
	// declared only when a script has said how to answer.
	if e.mode != "decline" {
		a.elicitor = e
	}
	return nil
}

// rootsFor is what t may see: its configured roots and --root's.
func (a *app) rootsFor(t client.Target) ([]client.Root, error) {
	var roots []client.Root
	for _, dir := range append(append([]string(nil), t.Roots...), a.target.roots...) {
		st, err := os.Stat(dir)
		if err != nil || !st.IsDir() {
			return nil, &usageError{fmt.Sprintf("root %q is not a directory", dir)}
		}
		r, err := client.RootOf(dir)
		if err != nil {
			return nil, &usageError{fmt.Sprintf("root %q: %v", dir, err)}
		}
		roots = append(roots, r)
	}
	return roots, nil
}

// batchFeatures adds to o what a batch command offers and prints: answers to
// form elicitation (--elicit), the server's log messages (--server-log), and
// resource updates for read --follow.
func (a *app) batchFeatures(o *client.Options) {
	o.Roots = a.roots
	if a.elicitor != nil {
		o.Elicit = a.elicitor.answer
	}
	o.LogLevel = a.target.serverLog
	o.OnEvent = func(e client.Event) {
		switch e.Kind {
		case client.EventLog:
			if a.target.serverLog != "" {
				a.note(fmt.Sprintf("mcpsh: server log: %s%s: %s", termtext.Line(e.Level), logger(e.Logger), termtext.Line(e.Text)))
			}
		case client.EventResourceUpdated:
			if a.updated != nil {
				select {
				case a.updated <- e.Text:
				default: // a read is already due
				}
			}
		}
	}
}

func logger(name string) string {
	if name == "" {
		return ""
	}
	return " [" + termtext.Line(name) + "]"
}

// note prints a line on stderr, above a call's status line if one is drawn.
func (a *app) note(line string) {
	if p := a.progress.Load(); p != nil {
		p.println(line)
		return
	}
	fmt.Fprintln(a.io.ErrOut, line)
}

// withFollow prepares a.updated before connecting, for read --follow.
func (a *app) withFollow() {
	a.updated = make(chan string, 1)
}

// ctxDone reports whether the command was interrupted.
func ctxDone(ctx context.Context) bool { return ctx.Err() != nil }
