package audit

import (
	"fmt"
	"io"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// baselineSummary counts a comparison: how many tools now and then, and
// the findings by severity.
func baselineSummary(r *Report, base *Baseline) string {
	c := Count(r.Findings)
	weakened := c[Error] + c[Warning]
	return fmt.Sprintf("%d tools now, %d in the baseline · %d weakened, %d information", len(r.Tools), len(base.Tools), weakened, c[Info])
}

// WriteBaselineText writes a comparison with a baseline (its findings are
// r.Findings, from CompareBaseline): a summary, then each changed tool and
// its changes, tools gone from the server included.
func (r *Report) WriteBaselineText(w io.Writer, base *Baseline, file string, width int, p Paint) {
	if width < 40 {
		width = 100
	}
	fmt.Fprintf(w, "%s %s (%s) with %s: %s\n", p.bold("Baseline check of"), termtext.Line(r.Server), termtext.Line(r.Via),
		termtext.Line(file), baselineSummary(r, base))
	if len(r.Findings) == 0 {
		fmt.Fprintln(w, "  "+p.dim("nothing changed"))
		return
	}
	tool := ""
	for _, f := range r.Findings {
		if f.Tool != tool {
			tool = f.Tool
			fmt.Fprintf(w, "\n%s\n", p.bold(termtext.Line(tool)))
		}
		sev := "  " + termtext.Pad(string(f.Severity), 8)
		head := sev + " " + f.Rule + "  "
		fmt.Fprint(w, p.sev(f.Severity, sev)+" "+f.Rule+"  ")
		fmt.Fprintln(w, wrapIndent(termtext.Line(f.Message), width, ansi.StringWidth(head), 11))
	}
}

// WriteBaselineMarkdown is WriteBaselineText for a pull request comment or
// a job summary.
func (r *Report) WriteBaselineMarkdown(w io.Writer, base *Baseline, file string) {
	fmt.Fprintf(w, "## mcpsh baseline check: %s\n\n", mdLine(r.Server))
	fmt.Fprintf(w, "%s (%s, baseline %s)\n\n", baselineSummary(r, base), mdLine(r.Via), mdLine(file))
	if len(r.Findings) == 0 {
		fmt.Fprintln(w, "Nothing changed.")
		return
	}
	fmt.Fprintln(w, "| severity | tool | rule | change |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, f := range r.Findings {
		fmt.Fprintf(w, "| %s %s | %s | `%s` | %s |\n", icon(f.Severity), f.Severity, mdCode(f.Tool, true), f.Rule, md(f.Message))
	}
}
