package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// dial is how one command connects, beyond what every command shares: what
// the target flags make it offer the server, and what the command listens
// for. The command owns it; the factory only reads it.
type dial struct {
	features
	// updated hears the URIs of resources the server says changed (read
	// --follow); nil for none.
	updated chan string
	// tap, when set, also hears each session's messages in wire order
	// (audit --probe puts notifications on the call they arrived during).
	tap func(client.Target, func(client.TraceEntry)) func(client.TraceEntry)
	// several: the command talks to every configured server (--all), so a
	// warning names its server.
	several bool
	// listOnly: the command lists and makes no call, so the session need
	// not hear the server's list changes (client.Options.ListOnly).
	listOnly bool
}

// features are what mcpsh offers a server: the roots it may see, and
// answers to its requests for input (--elicit).
type features struct {
	roots    []client.Root
	elicitor *elicitor
}

// logLevels are the syslog levels of logging/setLevel, lowest first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// DefaultConnectTimeout bounds the handshake, so a server that never answers
// does not hang a script (or the TUI).
const DefaultConnectTimeout = 30 * time.Second

// connect resolves the target and opens a session with its tools listed.
// d may be nil: the command offers only what the flags say.
func (f *factory) connect(ctx context.Context, command []string, d *dial) (*client.Session, error) {
	if d == nil {
		d = &dial{}
	}
	t, err := f.resolveTarget(command)
	if err != nil {
		return nil, err
	}
	if d.features, err = f.prepareFeatures(t); err != nil {
		return nil, err
	}
	s, l, err := f.open(ctx, t, d.roots, d)
	if err != nil {
		return nil, err
	}
	for _, w := range l.Warnings {
		f.warn(w)
	}
	return s, nil
}

// open connects to t, offering roots and the batch features, and lists its
// tools, within --connect-timeout. prepareFeatures has checked the flags.
func (f *factory) open(ctx context.Context, t client.Target, roots []client.Root, d *dial) (*client.Session, *client.Listing, error) {
	ctx, cancel := context.WithTimeout(ctx, f.target.connectTimeout)
	defer cancel()
	o := f.clientOptionsFor(t)
	f.batchFeatures(o, d)
	o.Roots = roots
	o.ListOnly = d.listOnly
	if d.tap != nil {
		o.Trace = d.tap(t, o.Trace)
	}
	if d.several {
		// With --all, say which server a warning is about.
		name := termtext.Line(t.Label())
		o.OnWarning = func(w string) { f.warn(name + ": " + w) }
	}
	s, err := client.Connect(ctx, t, o)
	if err != nil {
		return nil, nil, err
	}
	l, err := s.ListTools(ctx)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, l, nil
}

// targetGiven reports whether the command line names a server.
func (f *factory) targetGiven(command []string) bool {
	t := &f.target
	return t.demo || t.server != "" || t.url != "" || t.sse != "" || len(command) > 0
}

// clientOptions are the client options every command starts from.
func (f *factory) clientOptions() *client.Options {
	o := &client.Options{ProtocolVersion: f.target.protocol, Version: currentVersion().short(), Recorder: f.recorder, BeforeSend: f.beforeSend, OnWarning: f.warn,
		Handshakes: f.handshakes(), Hurry: f.hurry}
	if f.trace != nil {
		o.Trace = f.trace.write
	}
	if f.target.serverStderr {
		o.ServerStderr = f.io.ErrOut
	}
	return o
}

// prepareFeatures checks the flags that shape what mcpsh offers the server,
// before anything starts (--protocol, --root, --server-log and --elicit),
// opens the trace, and returns what t is offered.
func (f *factory) prepareFeatures(t client.Target) (features, error) {
	var feat features
	if err := client.ValidateProtocol(f.target.protocol); err != nil {
		return feat, &usageError{"--protocol: " + err.Error()}
	}
	if l := f.target.serverLog; l != "" && !slices.Contains(logLevels, l) {
		return feat, &usageError{fmt.Sprintf("--server-log %q: want one of %s", l, strings.Join(logLevels, ", "))}
	}
	roots, err := f.rootsFor(t)
	if err != nil {
		return feat, err
	}
	feat.roots = roots
	if f.logs.trace != "" && f.trace == nil {
		tf, err := openTrace(f.logs.trace)
		if err != nil {
			return feat, err
		}
		f.trace = tf
	}
	e, err := newElicitor(f.target.elicit, f.warn)
	if err != nil {
		return feat, &usageError{"--elicit: " + err.Error()}
	}
	// Declining everything is not offering elicitation: the capability is
	// declared only when a script has said how to answer.
	if e.mode != "decline" {
		feat.elicitor = e
	}
	return feat, nil
}

// rootsFor is what t may see: its configured roots and --root's.
func (f *factory) rootsFor(t client.Target) ([]client.Root, error) {
	var roots []client.Root
	for _, dir := range append(append([]string(nil), t.Roots...), f.target.roots...) {
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
func (f *factory) batchFeatures(o *client.Options, d *dial) {
	o.Roots = d.roots
	if d.elicitor != nil {
		o.Elicit = d.elicitor.answer
	}
	o.LogLevel = f.target.serverLog
	updated := d.updated
	o.OnEvent = func(e client.Event) {
		switch e.Kind {
		case client.EventLog:
			if f.target.serverLog != "" {
				f.note(fmt.Sprintf("mcpsh: server log: %s%s: %s", termtext.Line(e.Level), logger(e.Logger), termtext.Line(e.Text)))
			}
		case client.EventResourceUpdated:
			if updated != nil {
				select {
				case updated <- e.Text:
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

// ctxDone reports whether the command was interrupted.
func ctxDone(ctx context.Context) bool { return ctx.Err() != nil }
