package cli

import (
	"fmt"
	"sync"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/spf13/cobra"
)

// auditOne audits the one server named. With --probe an untrusted server is
// a usage error found before anything starts: the probe would call nothing.
func (a *app) auditOne(cmd *cobra.Command, command []string, f *auditFlags) ([]*audited, error) {
	t, err := a.resolveTarget(cmd, command)
	if err != nil {
		return nil, err
	}
	if f.probe && t.Trust != policy.Trusted {
		return nil, &usageError{fmt.Sprintf("audit --probe: %s is untrusted (--untrusted, or \"trust\" in its config): its hints are not believed, "+
			"so no tool counts as read-only and the probe would call none; nothing was sent. Audit it without --probe, or trust it", termtext.Line(t.Label()))}
	}
	if err := a.prepareProbe(f); err != nil {
		return nil, err
	}
	if err := a.prepareFeatures(t); err != nil {
		return nil, err
	}
	sv := &audited{name: t.Label()}
	if a.target.server != "" || !a.targetGiven(command) {
		sv.source = a.sourceOf(t.Name)
	}
	ws := a.watchTraffic(f.probe)
	s, l, err := a.open(cmd.Context(), t, a.roots)
	if err != nil {
		return []*audited{sv}, err
	}
	for _, w := range l.Warnings {
		a.warn(w)
	}
	sv.session = s
	return []*audited{sv}, a.auditServer(cmd, sv, ws, f)
}

// auditAll audits every configured server. An untrusted one is audited
// without a probe, and stderr and the SARIF log say so: refusing the whole
// command would make --all --probe unusable next to any untrusted server.
// --untrusted makes them all untrusted, so there it is a usage error.
func (a *app) auditAll(cmd *cobra.Command, command []string, f *auditFlags) ([]*audited, error) {
	if f.probe && a.target.untrusted {
		return nil, &usageError{"audit --all --probe --untrusted: no server would be probed (the probe calls tools on trusted servers only); nothing was sent"}
	}
	if err := a.prepareProbe(f); err != nil {
		return nil, err
	}
	ws := a.watchTraffic(f.probe)
	rs, err := a.eachServer(cmd, command)
	var out []*audited
	for _, r := range rs {
		out = append(out, &audited{name: r.name, source: a.sourceOf(r.name), session: r.session, err: r.err})
	}
	if err != nil {
		return out, err
	}
	for _, sv := range out {
		if sv.session == nil {
			continue
		}
		if err := a.auditServer(cmd, sv, ws, f); err != nil {
			return out, err
		}
	}
	a.reportUnreached(rs)
	return out, nil
}

// prepareProbe opens the session log, where the probe's calls go like any
// others; nothing is opened for an audit that calls nothing.
func (a *app) prepareProbe(f *auditFlags) error {
	if !f.probe {
		return nil
	}
	return a.openLog()
}

// auditServer audits one connected server, probing it when asked. The error
// is an interruption; a probe that could not run is the server's err.
func (a *app) auditServer(cmd *cobra.Command, sv *audited, ws *trafficWatches, f *auditFlags) error {
	s := sv.session
	if !f.probe {
		sv.report = auditOf(s, s.Tools())
		return nil
	}
	if s.Target.Trust != policy.Trusted {
		note := "not probed: the server is untrusted, so no tool of it counts as read-only"
		sv.notes = append(sv.notes, note)
		a.warn(termtext.Line(sv.name) + ": " + note)
		sv.report = auditOf(s, s.Tools())
		return nil
	}
	p, err := a.runProbe(cmd, sv, ws.of(s.Target), f)
	tools := s.Tools()
	if p != nil {
		tools = p.Listed
	}
	sv.report = auditOf(s, tools)
	if p != nil {
		sv.report.AddProbe(p)
	}
	if err != nil {
		if cmd.Context().Err() != nil {
			return cmd.Context().Err()
		}
		sv.err = err
		fmt.Fprintf(a.io.ErrOut, "mcpsh: %scould not probe: %s\n", a.serverPrefix(sv), termtext.Sanitize(err.Error()))
	}
	return nil
}

// probeEvery is how often a line on stderr says how far a probe has come,
// in calls: on a terminal the status line shows each call that takes a while.
const probeEvery = 25

// runProbe probes one server, with progress on stderr: a line when it
// starts, every probeEvery calls, and the status line of the call in flight.
func (a *app) runProbe(cmd *cobra.Command, sv *audited, w *audit.Watch, f *auditFlags) (*audit.Probe, error) {
	prefix := a.serverPrefix(sv)
	var prog *progressLine
	stop := func() {
		if prog != nil {
			a.progress.Store(nil)
			prog.done()
			prog = nil
		}
	}
	defer stop()
	o := audit.ProbeOptions{
		Timeout: f.probeTimeout,
		Watch:   w,
		OnCall: func(n, total int, tool string, example int) {
			stop()
			if n == 1 {
				fmt.Fprintf(a.io.ErrOut, "mcpsh: %sprobing: %s to read-only tools\n", prefix, units.Plural(total, "call"))
			} else if n%probeEvery == 0 {
				fmt.Fprintf(a.io.ErrOut, "mcpsh: %sprobe %d/%d\n", prefix, n, total)
			}
			label := fmt.Sprintf("probe %d/%d %s%s", n, total, prefix, termtext.Line(tool))
			if example > 0 {
				label += fmt.Sprintf(" example %d", example)
			}
			prog = a.newProgress(label)
			a.progress.Store(prog)
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
				a.warn("the session log did not record a probe call: " + o.LogError)
			}
		},
	}
	p, err := audit.RunProbe(cmd.Context(), sv.session, o)
	stop()
	if p != nil {
		for _, n := range p.Failed {
			fmt.Fprintf(a.io.ErrOut, "mcpsh: %scould not probe %s: %s\n", prefix, termtext.Line(n.String()), termtext.Line(n.Why))
		}
	}
	return p, err
}

// sourceOf is the config file that defines the server called name: its
// entry's own file (another host's, say), else mcpsh's config file.
func (a *app) sourceOf(name string) string {
	if a.cfg == nil {
		return ""
	}
	for _, s := range a.cfg.Servers {
		if s.Name == name && s.Origin.File != "" {
			return s.Origin.File
		}
	}
	return a.cfg.Path
}

// serverPrefix names the server in a line on stderr when there are several.
func (a *app) serverPrefix(sv *audited) string {
	if !a.several {
		return ""
	}
	return termtext.Line(sv.name) + ": "
}

// trafficWatches hold a Watch per server, fed by the session's wire tap.
type trafficWatches struct {
	mu sync.Mutex
	by map[string]*audit.Watch // by target label
}

// watchTraffic has every session opened from now on feed a Watch, when on.
func (a *app) watchTraffic(on bool) *trafficWatches {
	if !on {
		return nil
	}
	ws := &trafficWatches{by: map[string]*audit.Watch{}}
	a.traceHook = func(t client.Target, next func(client.TraceEntry)) func(client.TraceEntry) {
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
