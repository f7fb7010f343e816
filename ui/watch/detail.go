package watch

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/resultview"
)

// detailLines are the opened call's lines: the tool, the proxy, the
// decision and its reason, how it ended and its retries, the arguments as
// the session log keeps them, and what the console knows of the result.
func (m *Model) detailLines(w int) []string {
	st, c := m.st, m.open
	l := &layout.Lines{Width: w}
	name := st.Name.Render(lineOf(c.tool))
	if c.title != "" && c.title != c.tool {
		name = st.Title.Render(lineOf(c.title)) + "  " + name
	}
	l.WrapStyled(st.Title.Render(fmt.Sprintf("Call %d", c.id)) + "  " + name)
	field := func(label, text string, s func(string) string) {
		if s == nil {
			s = drawStyle(st.Row)
		}
		l.Hanging(st.Label.Render(termtext.Pad(label, 10)), s(text), st.Row)
	}
	class := st.ClassStyle(c.class).Render(lineOf(string(c.class)))
	if words := facetWords(c); words != "" {
		class += st.Muted.Render(" · " + words)
	}
	l.Blank()
	field("class", class, func(s string) string { return s })
	field("proxy", whoOf(c.proxy)+" ("+viaOf(c.proxy, true)+")", nil)
	if c.host != nil {
		field("host", strings.TrimSpace(lineOf(c.host.Name)+" "+lineOf(c.host.Version)+" "+lineOf(c.host.Protocol)), nil)
	}
	field("started", c.time.In(m.opts.Location).Format("2006-01-02 15:04:05"), drawStyle(st.Muted))

	l.Section(st, "decision")
	switch {
	case c.decided:
		words := lineOf(string(c.final))
		if c.verdict != "" && c.verdict != c.final {
			words = lineOf(string(c.verdict)) + ", then " + words
		}
		if by := overlays.Approver(&client.Outcome{ApprovedBy: c.approvedBy, Rule: c.rule}); by != "" {
			words += ": " + by
		}
		field("verdict", words, nil)
	case c.waiting:
		field("verdict", lineOf(string(c.verdict))+": waiting for a person", drawStyle(st.Warning))
	default:
		field("verdict", lineOf(string(c.verdict)), nil)
	}
	if c.reason != "" {
		field("reason", lineOf(c.reason), nil)
	}
	if c.rule != "" {
		field("rule", lineOf(c.rule), nil)
	}
	for _, b := range c.basis {
		l.Wrap("  "+lineOf(b.String()), st.Muted)
	}

	l.Section(st, "outcome")
	status := statusOf(c)
	field("status", wordOf(status), drawStyle(overlays.StatusStyle(status, st)))
	if c.ended && status != client.StatusRefused {
		field("took", units.MS(c.durationMS), nil)
		retries := "none"
		if c.attempts > 1 {
			retries = fmt.Sprintf("%d (%s)", c.attempts-1, units.Plural(c.attempts, "attempt"))
		}
		field("retries", retries, nil)
	}
	if c.err != "" {
		field("error", lineOf(c.err), drawStyle(st.Error))
	}

	l.Section(st, "arguments")
	if c.args == nil {
		l.Add(st.Muted.Render("  not known here: the call's start was not seen"))
	} else {
		for _, a := range resultview.ArgLines(c.args, w) {
			l.Add(a)
		}
	}
	l.Section(st, "result")
	l.Wrap("not sent: a proxy tells its consoles how a call ended, not what it returned; the session log keeps a digest of it (mcpsh log --json).", st.Muted)
	return l.Out
}

// facetWords are the tool's marks in words.
func facetWords(c *call) string {
	var out []string
	for _, w := range policy.FacetWords {
		for _, f := range c.facets {
			if f == w.Word {
				out = append(out, lineOf(f))
			}
		}
	}
	return strings.Join(out, ", ")
}

// helpLines are every key of the console, by where focus is.
func (m *Model) helpLines(w int) []string {
	st := m.st
	l := &layout.Lines{Width: w}
	l.Add(st.Title.Render("Keys of mcpsh watch"))
	for _, s := range sections(m.keys) {
		l.Section(st, s.title)
		for _, b := range s.keys {
			l.Add("  " + st.Key.Render(termtext.Pad(b.Help().Key, 12)) + " " + st.KeyDesc.Render(b.Help().Desc))
		}
		for _, n := range s.notes {
			l.Wrap("  "+n, st.Muted)
		}
	}
	l.Section(st, "marks")
	l.Add("  " + overlays.MarkIdempotent + " idempotent  " + overlays.MarkOpenWorld + " open-world  " + overlays.MarkImplied + " hints implied  " +
		overlays.MarkConflict + " conflicting hints  " + overlays.MarkAllowed + " allowed for the session  " + overlays.MarkDenied + " denied by a rule")
	return l.Out
}
