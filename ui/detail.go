package ui

import (
	"encoding/json"

	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/style"
)

// renderDetail is everything mcpsh knows about one tool: what it is, the hints
// as declared, implied and in effect, what mcpsh would decide for a call and why,
// its schemas summarised, and its input examples.
func renderDetail(t *client.Tool, d policy.Decision, findings []audit.Finding, width int, st *style.Styles) string {
	if t == nil {
		return st.Muted.Render("no tool matches the filter")
	}
	w := &lines{width: width}
	w.wrap(termtext.Line(t.Title), st.Title)
	sub := termtext.Line(t.Name) + " · " + st.ClassStyle(t.Class()).Render(string(t.Class()))
	if n := len(t.Examples); n > 0 {
		sub += fmt.Sprintf(" · %d example%s", n, plural(n))
	}
	w.wrapStyled(sub)
	if t.ToolTitle != "" && t.AnnTitle != "" && t.ToolTitle != t.AnnTitle {
		w.wrap("title from tool.title; annotations.title is "+termtext.Line(t.AnnTitle), st.Muted)
	}
	if desc := termtext.Sanitize(t.Description); desc != "" {
		w.blank()
		w.wrap(desc, st.Row)
	}

	hintTable(w, t, st)
	if !t.HasAnnotations {
		w.wrap("no annotations at all: every hint takes the spec's worst-case default", st.Warning)
	}

	w.section(st, "If you call it")
	verdict := map[policy.Verdict]string{policy.Run: "runs", policy.Ask: "asks first", policy.Refuse: "refused"}[d.Verdict]
	w.wrap(verdict+": "+d.Reason, decisionStyle(st, d))
	replay := "replay-safe: retried on transient failures"
	if !d.ReplaySafe {
		replay = "not replay-safe (" + d.NotReplaySafe + "): never retried once it may have run"
	}
	w.wrap(replay, st.Muted)
	if d.OpenWorld {
		w.wrap(markOpenWorld+" open-world: flagged in the session log", st.MarkOpenWorld)
	}

	w.section(st, "Audit")
	if len(findings) == 0 {
		w.add(st.OK.Render("no findings"))
	}
	for _, f := range findings {
		style := map[audit.Severity]lipgloss.Style{audit.Error: st.Error, audit.Warning: st.Warning}[f.Severity]
		if f.Severity == audit.Info {
			style = st.Muted
		}
		w.add(style.Render(string(f.Severity)) + " " + st.Label.Render(f.Rule))
		w.wrapIndented(termtext.Line(f.Message), 2, st.Row)
	}

	w.section(st, "Input")
	schemaSummary(w, t.InputSchema, st, "takes no arguments")
	if t.OutputSchema != nil {
		w.section(st, "Output")
		schemaSummary(w, t.OutputSchema, st, "an empty object")
	}
	if len(t.Examples) > 0 {
		w.section(st, "Examples (1-9 to call with one)")
		for i, ex := range t.Examples {
			b, _ := json.Marshal(ex)
			w.hangingAt(fmt.Sprintf("%d ", i+1), termtext.Line(string(b)), " ,", st.Row)
		}
	}
	if len(t.Problems) > 0 {
		w.section(st, "Problems in the declaration")
		for _, p := range t.Problems {
			w.wrap("• "+termtext.Line(p), st.Warning)
		}
	}
	return strings.Join(w.out, "\n")
}

func decisionStyle(st *style.Styles, d policy.Decision) lipgloss.Style {
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
func schemaSummary(w *lines, raw json.RawMessage, st *style.Styles, none string) {
	fields, err := form.ParseFields(raw)
	switch {
	case err != nil:
		w.wrap("schema mcpsh cannot read: "+termtext.Line(err.Error()), st.Warning)
		return
	case len(fields) == 0:
		w.add(st.Muted.Render(none))
		return
	}
	nameW := 0
	for _, f := range fields {
		nameW = max(nameW, ansi.StringWidth(termtext.Line(f.Name))+1)
	}
	nameW = min(nameW, w.width/3)
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
		w.hanging(termtext.Pad(termtext.Truncate(name, nameW), nameW+1), text, st.Row)
		if d := termtext.Line(f.Description); d != "" {
			w.wrapIndented(d, 2, st.Muted)
		}
	}
}

// lines collects a pane's lines, each cut to width.
type lines struct {
	width int
	out   []string
}

func (l *lines) add(s string) { l.out = append(l.out, termtext.Truncate(s, l.width)) }

func (l *lines) blank() { l.out = append(l.out, "") }

func (l *lines) section(st *style.Styles, title string) {
	l.blank()
	l.add(st.Label.Render(title))
}

// wrap adds text wrapped to the width, in style.
func (l *lines) wrap(text string, style lipgloss.Style) {
	for _, para := range strings.Split(text, "\n") {
		for _, line := range strings.Split(ansi.Wrap(para, l.width, " "), "\n") {
			l.add(style.Render(line))
		}
	}
}

// wrapStyled wraps text that carries its own styles.
func (l *lines) wrapStyled(text string) {
	for _, line := range strings.Split(ansi.Wrap(text, max(l.width, 1), " "), "\n") {
		l.add(line)
	}
}

// hanging adds head, then text wrapped beside it with the lines after the
// first indented under the text's start; on a pane too narrow for that,
// the text goes under head, indented by two.
func (l *lines) hanging(head, text string, style lipgloss.Style) {
	l.hangingAt(head, text, " ", style)
}

// hangingAt is hanging, breaking lines at any of breaks (", " for JSON).
// The text is cut past hangMax lines: the detail pane is drawn every frame,
// and a server's example or list of choices can be any size (the form
// shows them whole).
func (l *lines) hangingAt(head, text, breaks string, style lipgloss.Style) {
	indent := ansi.StringWidth(head)
	text = clipCells(text, max(l.width-indent, 16)*hangMax)
	if l.width-indent < 16 {
		l.add(head)
		l.wrapIndented(text, 2, style)
		return
	}
	pad := strings.Repeat(" ", indent)
	for i, line := range strings.Split(ansi.Wrap(text, l.width-indent, breaks), "\n") {
		if i == 0 {
			l.add(head + style.Render(line))
		} else {
			l.add(pad + style.Render(line))
		}
	}
}

// hangMax is the most lines hanging text takes.
const hangMax = 8

// clipCells cuts s to at most cells cells, with "…" when cut, without
// measuring all of a long s first.
func clipCells(s string, cells int) string {
	if n := cells * 4; len(s) > n { // no cell takes more than 4 bytes
		s = s[:paneRuneStart(s, n)]
	}
	return termtext.Truncate(s, cells)
}

// wrapIndented adds text wrapped to the width with every line indented.
func (l *lines) wrapIndented(text string, indent int, style lipgloss.Style) {
	pad := strings.Repeat(" ", indent)
	for _, line := range strings.Split(ansi.Wrap(text, max(l.width-indent, 10), " "), "\n") {
		l.add(pad + style.Render(line))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
