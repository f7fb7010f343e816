package audit

import (
	"fmt"
	"io"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
)

// Summary says in one line what the probe did.
func (p *Probe) Summary() string {
	n := len(p.Findings)
	return fmt.Sprintf("%s to %s · %s · %d not called · %d could not be probed",
		units.Plural(p.Calls, "call"), units.Plural(p.Tools, "read-only tool"), units.Plural(n, "finding"), len(p.Skipped), len(p.Failed))
}

// String names the tool, and the example when there is one.
func (n ProbeNote) String() string {
	if n.Example > 0 {
		return fmt.Sprintf("%s example %d", n.Tool, n.Example)
	}
	return n.Tool
}

// Incomplete reports whether some calls could not be made: the probe did not
// see everything it set out to.
func (p *Probe) Incomplete() bool { return p != nil && len(p.Failed) > 0 }

func (n Notice) String() string {
	if n.URI != "" {
		return n.Method + " for " + n.URI
	}
	return n.Method
}

func (r *Report) writeProbeText(w io.Writer, width int, p Paint) {
	pr := r.Probe
	if pr == nil {
		return
	}
	fmt.Fprintf(w, "\n%s %s\n", p.bold("Probe:"), pr.Summary())
	for _, n := range pr.Failed {
		fmt.Fprintln(w, "  "+p.sev(Error, "could not probe")+" "+wrapIndent(termtext.Line(n.String()+": "+n.Why), width, 18, 4))
	}
	for _, n := range pr.Skipped {
		fmt.Fprintln(w, p.dim("  "+wrapIndent(termtext.Line(n.String()+": "+n.Why), width, 2, 4)))
	}
	for _, n := range pr.Between {
		fmt.Fprintln(w, p.dim("  "+wrapIndent("between calls the server sent "+termtext.Line(n.String())+" (put on no tool)", width, 2, 4)))
	}
}

func (r *Report) writeProbeMarkdown(w io.Writer) {
	pr := r.Probe
	if pr == nil {
		return
	}
	fmt.Fprintln(w, "### Probe")
	fmt.Fprintln(w)
	fmt.Fprintln(w, pr.Summary())
	fmt.Fprintln(w)
	for _, n := range pr.Failed {
		fmt.Fprintf(w, "- ⛔ could not probe %s: %s\n", mdCode(n.String(), false), mdLine(n.Why))
	}
	for _, n := range pr.Skipped {
		fmt.Fprintf(w, "- %s: %s\n", mdCode(n.String(), false), mdLine(n.Why))
	}
	for _, n := range pr.Between {
		fmt.Fprintf(w, "- between calls the server sent %s (put on no tool)\n", mdLine(n.String()))
	}
	if len(pr.Failed)+len(pr.Skipped)+len(pr.Between) > 0 {
		fmt.Fprintln(w)
	}
}
