// Package tooldetail draws the detail of one tool, beside the tool list:
// what it is, its hints as declared, implied and in effect, what mcpsh would
// decide for a call and why, its schemas summarised, and its examples.
package tooldetail

import (
	"encoding/json"

	"github.com/mcpsh/mcpsh/ui/layout"

	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
)

// Render is everything mcpsh knows about one tool: what it is, the hints
// as declared, implied and in effect, what mcpsh would decide for a call and why,
// its schemas summarised, and its input examples.
func Render(t *client.Tool, d policy.Decision, findings []audit.Finding, width int, st *style.Styles) string {
	if t == nil {
		return st.Muted.Render("no tool matches the filter")
	}
	w := &layout.Lines{Width: width}
	w.Wrap(termtext.Line(t.Title), st.Title)
	sub := termtext.Line(t.Name) + " · " + st.ClassStyle(t.Class()).Render(string(t.Class()))
	if n := len(t.Examples); n > 0 {
		sub += " · " + units.Plural(n, "example")
	}
	switch t.TaskSupport {
	case client.TaskRequired:
		sub += " · runs as a task"
	case client.TaskOptional:
		sub += " · may run as a task"
	}
	w.WrapStyled(sub)
	if t.ToolTitle != "" && t.AnnTitle != "" && t.ToolTitle != t.AnnTitle {
		w.Wrap("title from tool.title; annotations.title is "+termtext.Line(t.AnnTitle), st.Muted)
	}
	if desc := termtext.Sanitize(t.Description); desc != "" {
		w.Blank()
		w.Wrap(desc, st.Row)
	}

	hintTable(w, t, st)
	if !t.HasAnnotations {
		w.Wrap("no annotations at all: every hint takes the spec's worst-case default", st.Warning)
	}

	w.Section(st, "If you call it")
	verdict := map[policy.Verdict]string{policy.Run: "runs", policy.Ask: "asks first", policy.Refuse: "refused"}[d.Verdict]
	w.Wrap(verdict+": "+d.Reason, DecisionStyle(st, d))
	replay := "replay-safe: retried on transient failures"
	if !d.ReplaySafe {
		replay = "not replay-safe (" + d.NotReplaySafe + "): never retried once it may have run"
	}
	w.Wrap(replay, st.Muted)
	if d.OpenWorld {
		w.Wrap(overlays.MarkOpenWorld+" open-world: flagged in the session log", st.MarkOpenWorld)
	}

	w.Section(st, "Audit")
	if len(findings) == 0 {
		w.Add(st.OK.Render("no findings"))
	}
	for _, f := range findings {
		style := map[audit.Severity]lipgloss.Style{audit.Error: st.Error, audit.Warning: st.Warning}[f.Severity]
		if f.Severity == audit.Info {
			style = st.Muted
		}
		w.Add(style.Render(string(f.Severity)) + " " + st.Label.Render(f.Rule))
		w.WrapIndented(termtext.Line(f.Message), 2, st.Row)
	}

	w.Section(st, "Input")
	schemaSummary(w, t.InputSchema, st, "takes no arguments")
	if t.OutputSchema != nil {
		w.Section(st, "Output")
		schemaSummary(w, t.OutputSchema, st, "an empty object")
	}
	if len(t.Examples) > 0 {
		w.Section(st, "Examples (1-9 to call with one)")
		for i, ex := range t.Examples {
			b, _ := json.Marshal(ex)
			w.HangingAt(fmt.Sprintf("%d ", i+1), termtext.Line(string(b)), " ,", st.Row)
		}
	}
	if len(t.Problems) > 0 {
		w.Section(st, "Problems in the declaration")
		for _, p := range t.Problems {
			w.Wrap("• "+termtext.Line(p), st.Warning)
		}
	}
	return strings.Join(w.Out, "\n")
}

// DecisionStyle is the style of a decision's verdict: run, ask or refuse.
func DecisionStyle(st *style.Styles, d policy.Decision) lipgloss.Style {
	switch d.Verdict {
	case policy.Run:
		return st.OK
	case policy.Ask:
		return st.Warning
	}
	return st.Error
}

// schemaSummary lists a schema's fields: name (* when required), type, rules,
// default, and description.
func schemaSummary(w *layout.Lines, raw json.RawMessage, st *style.Styles, none string) {
	fields, err := form.ParseFields(raw)
	switch {
	case err != nil:
		w.Wrap("schema mcpsh cannot read: "+termtext.Line(err.Error()), st.Warning)
		return
	case len(fields) == 0:
		w.Add(st.Muted.Render(none))
		return
	}
	nameW := 0
	for _, f := range fields {
		nameW = max(nameW, ansi.StringWidth(termtext.Line(f.Name))+1)
	}
	nameW = min(nameW, w.Width/3)
	for _, f := range fields {
		name := termtext.Line(f.Name)
		if f.Required {
			name += "*"
		}
		var rules []string
		if f.Constraints != "" {
			rules = append(rules, termtext.Line(f.Constraints))
		}
		if len(f.Enum) > 0 {
			var opts []string
			for _, e := range f.Enum {
				b, _ := json.Marshal(e)
				opts = append(opts, termtext.Line(string(b)))
			}
			rules = append(rules, "one of "+strings.Join(opts, ", "))
		}
		if f.HasDefault {
			b, _ := json.Marshal(f.Default)
			rules = append(rules, "default "+termtext.Line(string(b)))
		}
		text := st.Label.Render(f.TypeLabel())
		if len(rules) > 0 {
			text += " " + st.Muted.Render(strings.Join(rules, "; "))
		}
		w.Hanging(termtext.Pad(termtext.Truncate(name, nameW), nameW+1), text, st.Row)
		if d := termtext.Line(f.Description); d != "" {
			w.WrapIndented(d, 2, st.Muted)
		}
	}
}
