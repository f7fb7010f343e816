package audit

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
)

// Report is an audit of one server: its findings, each tool's host preview,
// and the directories' readiness.
type Report struct {
	Server, Via string
	Trust       policy.Trust
	Tools       []*client.Tool
	Findings    []Finding
	Directories []Directory
	// Probe is what audit --probe did; nil when there was none.
	Probe *Probe
}

// New audits tools.
func New(server, via string, trust policy.Trust, tools []*client.Tool) *Report {
	return &Report{Server: server, Via: via, Trust: trust, Tools: tools, Findings: Check(tools), Directories: Readiness(tools)}
}

func (r *Report) summary() string {
	c := Count(r.Findings)
	return fmt.Sprintf("%s · %s, %s, %d info", units.Plural(len(r.Tools), "tool"),
		units.Plural(c[Error], "error"), units.Plural(c[Warning], "warning"), c[Info])
}

// Paint colours parts of the text report; the zero value paints nothing.
type Paint struct {
	Severity func(Severity, string) string
	Dim      func(string) string
	Bold     func(string) string
}

func (p Paint) sev(v Severity, t string) string {
	if p.Severity == nil {
		return t
	}
	return p.Severity(v, t)
}

func (p Paint) dim(t string) string {
	if p.Dim == nil {
		return t
	}
	return p.Dim(t)
}

func (p Paint) bold(t string) string {
	if p.Bold == nil {
		return t
	}
	return p.Bold(t)
}

// WriteText writes the readable report, grouped by tool, wrapped to width.
func (r *Report) WriteText(w io.Writer, width int, p Paint) {
	if width < 40 {
		width = 100
	}
	fmt.Fprintf(w, "%s %s (%s): %s\n", p.bold("Audit of"), termtext.Line(r.Server), termtext.Line(r.Via), r.summary())
	byTool := ByTool(r.Findings)
	for _, t := range r.Tools {
		fs := byTool[t.Name]
		fmt.Fprintf(w, "\n%s  %s · %s\n", p.bold(termtext.Line(t.Name)), p.dim(termtext.Line(t.Title)), t.Class())
		if len(fs) == 0 {
			fmt.Fprintln(w, "  "+p.dim("no findings"))
		}
		for _, f := range fs {
			sev := "  " + termtext.Pad(string(f.Severity), 8)
			head := sev + " " + f.Rule + "  "
			fmt.Fprint(w, p.sev(f.Severity, sev)+" "+f.Rule+"  ")
			fmt.Fprintln(w, wrapIndent(termtext.Line(f.Message), width, ansi.StringWidth(head), 11))
		}
		var hosts []string
		for _, h := range PreviewTool(t, r.Trust) {
			hosts = append(hosts, fmt.Sprintf("%s %s", h.Host, h.Action))
		}
		fmt.Fprintln(w, p.dim("  hosts: "+wrapIndent(strings.Join(hosts, " · "), width, 9, 9)))
	}
	r.writeProbeText(w, width, p)
	fmt.Fprintf(w, "\n%s\n", p.bold("Directory readiness"))
	for _, d := range r.Directories {
		fmt.Fprintf(w, "  %s: %d of %d tools ready (needs %s)\n", d.Name, d.Ready, d.Total, d.Requires)
		for _, m := range d.Missing {
			fmt.Fprintln(w, p.dim("    "+wrapIndent(termtext.Line(m), width, 4, 6)))
		}
	}
}

// wrapIndent wraps s to width, given that its first line starts at column
// first; the lines after it are indented by rest spaces.
func wrapIndent(s string, width, first, rest int) string {
	var b strings.Builder
	col := first
	for i, word := range strings.Fields(s) {
		wl := cells(word)
		switch {
		case i == 0:
		case col+1+wl > width:
			b.WriteString("\n" + strings.Repeat(" ", rest))
			col = rest
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += wl
	}
	return b.String()
}

// cells is the width of a word: its length when it is printable ASCII (nearly
// every word of a report of thousands of tools), else what ansi measures.
func cells(w string) int {
	for i := 0; i < len(w); i++ {
		if w[i] < 0x20 || w[i] >= 0x7f {
			return ansi.StringWidth(w)
		}
	}
	return len(w)
}

// WriteMarkdown writes the report for a pull request or an issue.
func (r *Report) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "## mcpsh audit: %s\n\n", mdLine(r.Server))
	fmt.Fprintf(w, "%s (%s)\n\n", r.summary(), mdLine(r.Via))
	if len(r.Findings) > 0 {
		fmt.Fprintln(w, "| severity | tool | rule | finding |")
		fmt.Fprintln(w, "|---|---|---|---|")
		for _, f := range r.Findings {
			fmt.Fprintf(w, "| %s %s | %s | `%s` | %s |\n", icon(f.Severity), f.Severity, mdCode(f.Tool, true), f.Rule, md(f.Message))
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintln(w, "No findings.")
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "### How hosts will treat each tool")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| tool | class | "+strings.Join(Hosts, " | ")+" |")
	fmt.Fprintln(w, "|---|---|"+strings.Repeat("---|", len(Hosts)))
	for _, t := range r.Tools {
		var cells []string
		for _, h := range PreviewTool(t, r.Trust) {
			cells = append(cells, string(h.Action))
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", mdCode(t.Name, true), t.Class(), strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
	r.writeProbeMarkdown(w)
	fmt.Fprintln(w, "### Directory readiness")
	fmt.Fprintln(w)
	for _, d := range r.Directories {
		fmt.Fprintf(w, "- **%s** (needs %s): %d of %d tools ready\n", d.Name, d.Requires, d.Ready, d.Total)
		for _, m := range d.Missing {
			fmt.Fprintf(w, "  - %s\n", mdLine(m))
		}
	}
}

func icon(s Severity) string {
	switch s {
	case Error:
		return "⛔"
	case Warning:
		return "⚠️"
	}
	return "ℹ️"
}
