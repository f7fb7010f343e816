package cli

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
)

// auditOne audits the one server named. With --probe an untrusted server is
// a usage error found before anything starts: the probe would call nothing.
func (opts *auditOptions) auditOne(ctx context.Context) ([]*audited, error) {
	f := opts.f
	t, err := f.resolveTarget(opts.command)
	if err != nil {
		return nil, err
	}
	if opts.probe && t.Trust != policy.Trusted {
		return nil, &usageError{fmt.Sprintf("audit --probe: %s is untrusted (--untrusted, or \"trust\" in its config): its hints are not believed, "+
			"so no tool counts as read-only and the probe would call none; nothing was sent. Audit it without --probe, or trust it", termtext.Line(t.Label()))}
	}
	if err := opts.prepareProbe(); err != nil {
		return nil, err
	}
	feat, err := f.prepareFeatures(t)
	if err != nil {
		return nil, err
	}
	opts.dial.features = feat
	sv := &audited{name: t.Label()}
	if f.target.server != "" || !f.targetGiven(opts.command) {
		sv.source = sourceOf(f.cfg, t.Name)
	}
	ws := opts.watchTraffic()
	s, l, err := f.open(ctx, t, feat.roots, &opts.dial)
	if err != nil {
		return []*audited{sv}, err
	}
	for _, w := range l.Warnings {
		f.warn(w)
	}
	sv.session = s
	return []*audited{sv}, opts.auditServer(ctx, sv, ws)
}

// auditAll audits every configured server. An untrusted one is audited
// without a probe, and stderr and the SARIF log say so: refusing the whole
// command would make --all --probe unusable next to any untrusted server.
// --untrusted makes them all untrusted, so there it is a usage error.
func (opts *auditOptions) auditAll(ctx context.Context) ([]*audited, error) {
	f := opts.f
	if opts.probe && f.target.untrusted {
		return nil, &usageError{"audit --all --probe --untrusted: no server would be probed (the probe calls tools on trusted servers only); nothing was sent"}
	}
	if err := opts.prepareProbe(); err != nil {
		return nil, err
	}
	ws := opts.watchTraffic()
	rs, err := f.eachServer(ctx, opts.command, &opts.dial)
	var out []*audited
	for _, r := range rs {
		out = append(out, &audited{name: r.name, source: sourceOf(f.cfg, r.name), session: r.session, err: r.err})
	}
	if err != nil {
		return out, err
	}
	for _, sv := range out {
		if sv.session == nil {
			continue
		}
		if err := opts.auditServer(ctx, sv, ws); err != nil {
			return out, err
		}
	}
	f.reportUnreached(rs)
	return out, nil
}

// prepareProbe opens the session log, where the probe's calls go like any
// others; nothing is opened for an audit that calls nothing.
func (opts *auditOptions) prepareProbe() error {
	if !opts.probe {
		return nil
	}
	return opts.f.openLog()
}

// auditServer audits one connected server, probing it when asked. The error
// is an interruption; a probe that could not run is the server's err.
func (opts *auditOptions) auditServer(ctx context.Context, sv *audited, ws *trafficWatches) error {
	f := opts.f
	s := sv.session
	if !opts.probe {
		sv.report = auditOf(s, s.Tools())
		return nil
	}
	if s.Target.Trust != policy.Trusted {
		note := "not probed: the server is untrusted, so no tool of it counts as read-only"
		sv.notes = append(sv.notes, note)
		f.warn(termtext.Line(sv.name) + ": " + note)
		sv.report = auditOf(s, s.Tools())
		return nil
	}
	p, err := opts.runProbe(ctx, sv, ws.of(s.Target))
	tools := s.Tools()
	if p != nil {
		tools = p.Listed
	}
	sv.report = auditOf(s, tools)
	if p != nil {
		sv.report.AddProbe(p)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		sv.err = err
		fmt.Fprintf(f.io.ErrOut, "mcpsh: %scould not probe: %s\n", opts.serverPrefix(sv), termtext.Sanitize(err.Error()))
	}
	return nil
}

// probeEvery is how often a line on stderr says how far a probe has come,
// in calls: on a terminal the status line shows each call that takes a while.
const probeEvery = 25

// runProbe probes one server, with progress on stderr: a line when it
// starts, every probeEvery calls, and the status line of the call in flight.
func (opts *auditOptions) runProbe(ctx context.Context, sv *audited, w *audit.Watch) (*audit.Probe, error) {
	f := opts.f
	prefix := opts.serverPrefix(sv)
	var prog *progressLine
	stop := func() {
		if prog != nil {
			f.progress.Store(nil)
			prog.done()
			prog = nil
		}
	}
	defer stop()
	o := audit.ProbeOptions{
		Timeout: opts.probeTimeout,
		Watch:   w,
		OnCall: func(n, total int, tool string, example int) {
			stop()
			if n == 1 {
				fmt.Fprintf(f.io.ErrOut, "mcpsh: %sprobing: %s to read-only tools\n", prefix, units.Plural(total, "call"))
			} else if n%probeEvery == 0 {
				fmt.Fprintf(f.io.ErrOut, "mcpsh: %sprobe %d/%d\n", prefix, n, total)
			}
			label := fmt.Sprintf("probe %d/%d %s%s", n, total, prefix, termtext.Line(tool))
			if example > 0 {
				label += fmt.Sprintf(" example %d", example)
			}
			prog = f.newProgress(label)
			f.progress.Store(prog)
		},
		Prepare: func(c *client.Call) {
			p := prog
			c.OnProgress = p.update
			c.OnRetry = func(n client.RetryNotice) {
				p.println(fmt.Sprintf("mcpsh: %s%s: attempt %d of %d failed (%s); retrying in %.1fs",
					prefix, termtext.Line(c.Tool.Name), n.Attempt, n.Of, termtext.Line(n.Error), n.Wait.Seconds()))
			}
		},
		Done: func(o *client.Outcome) {
			if o.LogError != "" {
				f.warn("the session log did not record a probe call: " + o.LogError)
			}
		},
	}
	p, err := audit.RunProbe(ctx, sv.session, o)
	stop()
	if p != nil {
		for _, n := range p.Failed {
			fmt.Fprintf(f.io.ErrOut, "mcpsh: %scould not probe %s: %s\n", prefix, termtext.Line(n.String()), termtext.Line(n.Why))
		}
	}
	return p, err
}

// sourceOf is the config file that defines the server called name: its
// entry's own file (another host's, say), else mcpsh's config file.
func sourceOf(cfg *config.File, name string) string {
	if cfg == nil {
		return ""
	}
	for _, s := range cfg.Servers {
		if s.Name == name && s.Origin.File != "" {
			return s.Origin.File
		}
	}
	return cfg.Path
}

// serverPrefix names the server in a line on stderr when there are several.
func (opts *auditOptions) serverPrefix(sv *audited) string {
	if !opts.dial.several {
		return ""
	}
	return termtext.Line(sv.name) + ": "
}

// trafficWatches hold a Watch per server, fed by the session's wire tap.
type trafficWatches struct {
	mu sync.Mutex
	by map[string]*audit.Watch // by target label
}

// watchTraffic has every session audit opens from now on feed a Watch,
// with --probe.
func (opts *auditOptions) watchTraffic() *trafficWatches {
	if !opts.probe {
		return nil
	}
	ws := &trafficWatches{by: map[string]*audit.Watch{}}
	opts.dial.tap = func(t client.Target, next func(client.TraceEntry)) func(client.TraceEntry) {
		w := &audit.Watch{}
		ws.mu.Lock()
		ws.by[t.Label()] = w
		ws.mu.Unlock()
		if next == nil {
			return w.Note
		}
		return func(e client.TraceEntry) {
			w.Note(e)
			next(e)
		}
	}
	return ws
}

func (ws *trafficWatches) of(t client.Target) *audit.Watch {
	if ws == nil {
		return nil
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.by[t.Label()]
}
