package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// The rules only a probe can check: they look at what tools do, not at what
// they declare. IDs are stable, like the static rules'.
const (
	RuleChangedState     = "read-only-changed-state"
	RuleOutputMismatch   = "output-schema-mismatch"
	RuleExampleToolError = "example-tool-error"
)

// ProbeRules is the catalogue of audit --probe, in report order.
var ProbeRules = []Rule{
	{RuleChangedState, Error, "a read-only tool made the server send tools/list_changed, resources/list_changed, resources/updated or prompts/list_changed while it ran", nil},
	{RuleOutputMismatch, Error, "a probe call's structuredContent breaks the tool's output schema, or is missing although it declares one", nil},
	{RuleExampleToolError, Info, "the tool answered one of its own input examples with isError", nil},
}

// AllRules is every rule an audit may report: the static catalogue, the
// probe's, then a baseline comparison's.
func AllRules() []Rule {
	return append(append(append([]Rule(nil), Rules...), ProbeRules...), BaselineRules...)
}

// ErrUntrusted: a probe calls tools, and the hints of an untrusted server are
// not believed, so no tool of it counts as read-only.
var ErrUntrusted = errors.New("the server is untrusted: its hints are not believed, so no tool counts as read-only and the probe calls none")

// ProbeOptions tune a probe; the zero value is usable.
type ProbeOptions struct {
	// Timeout bounds each attempt (client.Call.Timeout): zero takes the
	// server's configured timeout, else the client's default.
	Timeout time.Duration
	// Watch attributes notifications to calls; it must be the session's
	// Options.Trace. Without it no state change is seen.
	Watch *Watch
	// OnCall hears of each call before it is sent: its place among them all.
	OnCall func(n, total int, tool string, example int)
	// Prepare may set a call's progress and retry callbacks before it is sent.
	Prepare func(*client.Call)
	// Done hears of each call's outcome.
	Done func(*client.Outcome)
}

// Probe is what a probe did: the calls made, what was not called and why,
// what could not be probed, and the findings.
type Probe struct {
	// Listed is the listing the probe decided on, taken right before it.
	Listed []*client.Tool
	Calls  int // calls that reached the server
	Tools  int // tools called at least once
	// Skipped are tools, or examples, the probe did not call, and why.
	Skipped []ProbeNote
	// Failed are calls that could not be made or did not finish (transport,
	// timeouts, protocol errors): the probe is incomplete, and nothing is said
	// about the tool.
	Failed []ProbeNote
	// Between are state changes the server announced while no probe call was
	// in flight: not put on any tool.
	Between  []Notice
	Findings []Finding
}

// ProbeNote is one tool or example the probe did not call, or could not.
type ProbeNote struct {
	Tool    string `json:"tool"`
	Example int    `json:"example,omitempty"` // 1-based; 0 for the whole tool, or the call with no arguments
	Why     string `json:"why"`
}

// probeCall is one call the probe plans: a tool with an input example, or
// with no arguments when it has none and needs none.
type probeCall struct {
	tool    *client.Tool
	example int // 1-based; 0: no arguments
	args    map[string]any
}

// RunProbe calls each effectively read-only tool of a trusted server once per
// input example (a tool with none, and no required arguments, once with {}),
// and reports what the calls show: read-only tools that changed state, results
// that break their output schema, examples the tool itself rejects.
//
// It lists the tools again first and decides on what the server declares
// now. A tool is called only when policy would run it unasked in a
// --read-only batch: effectively read-only (a conflict of hints is not), on a
// trusted server, with no rule that denies it or asks first. Every call goes
// through Session.Do with ReadOnly set, so if the server re-declares a tool
// during the probe, the call is decided again on the new hints and refused
// unless the tool is still read-only. Examples that break the input schema
// are never sent (the static invalid-example rule reports them).
//
// The error is for a probe that could not run: an untrusted server, the
// listing failed, or ctx ended.
func RunProbe(ctx context.Context, s *client.Session, o ProbeOptions) (*Probe, error) {
	if s.Target.Trust != policy.Trusted {
		return nil, ErrUntrusted
	}
	l, err := s.ListTools(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the tools before the probe: %w", err)
	}
	p := &Probe{Listed: l.Tools}
	plan := p.plan(s, l.Tools)
	seen := newSeen()
	called := map[string]bool{}
	if o.Watch != nil {
		o.Watch.Take() // what came before the first call is no call's
	}
	for i, pc := range plan {
		if o.OnCall != nil {
			o.OnCall(i+1, len(plan), pc.tool.Name, pc.example)
		}
		c := &client.Call{Tool: pc.tool, Args: pc.args, Mode: policy.Batch, OnlyReadOnly: true, Timeout: o.Timeout}
		if o.Prepare != nil {
			o.Prepare(c)
		}
		out, err := s.Do(ctx, c)
		var during []Notice
		if o.Watch != nil {
			during = o.Watch.Take()
		}
		if out != nil && o.Done != nil {
			o.Done(out)
		}
		if ctx.Err() != nil {
			return p, ctx.Err()
		}
		if err != nil {
			// The server changed the tool's schema under the probe and the
			// example no longer fits: nothing was sent.
			p.Skipped = append(p.Skipped, ProbeNote{pc.tool.Name, pc.example, "not sent: " + termtext.Line(err.Error())})
			continue
		}
		switch out.Status {
		case client.StatusRefused:
			why := "not called: " + out.Reason
			if out.HintsChanged != "" {
				why = "not called: the server re-declared it during the probe: " + out.HintsChanged
			}
			p.Skipped = append(p.Skipped, ProbeNote{pc.tool.Name, pc.example, why})
			continue
		case client.StatusFailed, client.StatusCancelled:
			if len(out.Attempts) == 0 || out.Attempts[0].Failure == string(policy.NotSent) {
				p.Failed = append(p.Failed, ProbeNote{pc.tool.Name, pc.example, out.Error})
				continue
			}
			p.Calls++
			p.Failed = append(p.Failed, ProbeNote{pc.tool.Name, pc.example, out.Error})
		default:
			p.Calls++
		}
		called[pc.tool.Name] = true
		seen.add(pc, out, during)
	}
	p.Tools = len(called)
	if o.Watch != nil {
		p.Between = o.Watch.Between()
	}
	p.Findings = seen.findings(plan)
	return p, nil
}

// plan lists the calls to make, in listing order, and notes every tool and
// example left out.
func (p *Probe) plan(s *client.Session, tools []*client.Tool) []probeCall {
	var plan []probeCall
	for _, t := range tools {
		if why := notProbed(s, t); why != "" {
			p.Skipped = append(p.Skipped, ProbeNote{Tool: t.Name, Why: why})
			continue
		}
		if in, _ := t.SchemaErrors(); in != nil {
			p.Skipped = append(p.Skipped, ProbeNote{Tool: t.Name, Why: "not called: its input schema is unusable, so no example can be checked (see schema-invalid)"})
			continue
		}
		if len(t.Examples) == 0 {
			if err := t.Validate(map[string]any{}); err != nil {
				p.Skipped = append(p.Skipped, ProbeNote{Tool: t.Name, Why: "not called: it has no input examples and needs arguments"})
				continue
			}
			plan = append(plan, probeCall{tool: t, args: map[string]any{}})
			continue
		}
		for i, ex := range t.Examples {
			if err := t.Validate(ex); err != nil {
				p.Skipped = append(p.Skipped, ProbeNote{t.Name, i + 1, "not sent: the example breaks the tool's own input schema (see invalid-example)"})
				continue
			}
			args := make(map[string]any, len(ex))
			for k, v := range ex {
				args[k] = v
			}
			plan = append(plan, probeCall{tool: t, example: i + 1, args: args})
		}
	}
	return plan
}

// notProbed says why policy keeps t from being called by the probe, or "".
// It asks policy the question Do will ask: a --read-only batch call, no --yes.
func notProbed(s *client.Session, t *client.Tool) string {
	switch {
	case t.Hints.Conflict():
		return "not called: readOnlyHint and destructiveHint are both true, and mcpsh takes the stricter reading (destructive)"
	case !t.Effective().ReadOnly:
		return fmt.Sprintf("not called: a %s tool; the probe calls only read-only tools", t.Class())
	}
	d := s.Decide(&client.Call{Tool: t, Mode: policy.Batch, OnlyReadOnly: true})
	switch {
	case d.Verdict == policy.Run:
		return ""
	case d.Rule != "":
		return fmt.Sprintf("not called: the rule %q keeps it from running unasked", d.Rule)
	}
	return "not called: " + d.Reason
}

// seen gathers what the calls showed, by tool.
type seen struct {
	changes   map[string]map[string][]string // tool → notice (method, URI) → the calls it came during
	order     map[string][]string            // tool → notices in the order first seen
	mismatch  map[string][]string            // tool → one line per call whose result broke the schema
	toolError map[string][]string            // tool → one line per example answered with isError
}

func newSeen() *seen {
	return &seen{changes: map[string]map[string][]string{}, order: map[string][]string{},
		mismatch: map[string][]string{}, toolError: map[string][]string{}}
}

func (s *seen) add(pc probeCall, o *client.Outcome, during []Notice) {
	name, what := pc.tool.Name, callLabel(pc)
	for _, n := range during {
		key := n.Method
		if n.URI != "" {
			key += " for " + n.URI
		}
		if s.changes[name] == nil {
			s.changes[name] = map[string][]string{}
		}
		if _, ok := s.changes[name][key]; !ok {
			s.order[name] = append(s.order[name], key)
		}
		if calls := s.changes[name][key]; len(calls) == 0 || calls[len(calls)-1] != what {
			s.changes[name][key] = append(calls, what)
		}
	}
	if e := o.OutputSchemaError; e != "" && !strings.HasSuffix(e, client.ErrNotChecked.Error()) && !strings.HasPrefix(e, "the output schema could not be checked") {
		s.mismatch[name] = append(s.mismatch[name], what+": "+e)
	}
	if o.Status == client.StatusToolError && pc.example > 0 {
		s.toolError[name] = append(s.toolError[name], fmt.Sprintf("%s: %s", what, clip(resultText(o.Result), 120)))
	}
}

// findings turns what was seen into findings, a tool at a time in plan order.
func (s *seen) findings(plan []probeCall) []Finding {
	var out []Finding
	done := map[string]bool{}
	for _, pc := range plan {
		name := pc.tool.Name
		if done[name] {
			continue
		}
		done[name] = true
		for _, key := range s.order[name] {
			method, _, _ := strings.Cut(key, " for ")
			out = append(out, Finding{Tool: name, Rule: RuleChangedState, Severity: Error, Message: fmt.Sprintf(
				"declared read-only, but while mcpsh ran it (%s) the server sent %s before the answer: running it changed %s. "+
					"Hosts run read-only tools without asking, offer them in plan modes and retry them after failures; "+
					"if it changes anything, set readOnlyHint: false (and destructiveHint), otherwise do not send the notification from it",
				strings.Join(s.changes[name][key], ", "), key, stateChanges[method])})
		}
		for _, m := range s.mismatch[name] {
			out = append(out, Finding{Tool: name, Rule: RuleOutputMismatch, Severity: Error, Message: "the result of " + m +
				": clients that check structuredContent against the output schema reject this answer or drop its data; fix the result or the schema"})
		}
		for _, m := range s.toolError[name] {
			out = append(out, Finding{Tool: name, Rule: RuleExampleToolError, Severity: Info, Message: "the tool answered its own " + m +
				" (isError): clients fill calls from examples, so people and models will meet this error; fix the example or the tool"})
		}
	}
	return out
}

// callLabel names a probe call in a message: "example 2 ({"id":0})", or "with no arguments".
func callLabel(pc probeCall) string {
	if pc.example == 0 {
		return "with no arguments"
	}
	b, _ := json.Marshal(pc.args)
	return fmt.Sprintf("example %d (%s)", pc.example, clip(string(b), 60))
}

// resultText is a tool error's first text, for a message.
func resultText(r *client.Result) string {
	if r == nil {
		return ""
	}
	for _, b := range r.Content {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			return strings.Join(strings.Fields(b.Text), " ")
		}
	}
	return "no text"
}

// AddProbe puts a probe's findings beside the static ones.
func (r *Report) AddProbe(p *Probe) {
	r.Probe = p
	r.Findings = append(r.Findings, p.Findings...)
}
