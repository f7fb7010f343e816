package tooldetail

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
)

// hintTable shows each hint as the server declared it and what mcpsh makes
// of it. The last column says in words when a value is ignored and why, or
// comes from the spec's default, so no value can be read as the wrong one.
func hintTable(w *layout.Lines, t *client.Tool, st *style.Styles) {
	w.Section(st, "Hints")
	const labelW = 12 // "destructive" and a space
	declared := make([]string, len(policy.Fields))
	declW := len("declared")
	for i, f := range policy.Fields {
		declared[i] = "—"
		if raw, ok := t.Declared[string(f)]; ok {
			declared[i] = termtext.Truncate(termtext.Line(string(raw)), 10)
		}
		declW = max(declW, ansi.StringWidth(declared[i]))
	}
	cols := func(label, declared string) string {
		return termtext.Row("", termtext.Cell{Text: label, Width: labelW}, termtext.Cell{Text: declared, Width: declW + 2})
	}
	w.Add(st.Label.Render(cols("hint", "declared") + "in effect"))
	eff := t.Effective()
	value := map[policy.Field]bool{
		policy.FieldReadOnly: eff.ReadOnly, policy.FieldDestructive: eff.Destructive,
		policy.FieldIdempotent: eff.Idempotent, policy.FieldOpenWorld: eff.OpenWorld,
	}
	implied := false
	for i, f := range policy.Fields {
		effect, style := fmt.Sprint(value[f]), st.Row
		switch {
		case f == policy.FieldReadOnly && t.Hints.Conflict():
			effect, style = "false: destructiveHint is true too, and mcpsh takes the stricter reading", st.Error
		case !t.Hints.Relevant(f):
			effect, style = "ignored: read-only tool", st.Muted
		case !t.Hints.Get(f).Declared():
			effect, style, implied = effect+" (spec default)", st.MarkImplied, true
		}
		label := strings.TrimSuffix(string(f), "Hint")
		w.Hanging(cols(label, declared[i]), effect, style)
	}
	if t.Hints.Conflict() {
		w.Wrap(overlays.MarkConflict+" conflict: readOnlyHint and destructiveHint are both true; mcpsh takes the stricter reading "+
			"(destructive, asks first), while hosts that look only at readOnlyHint would run it unasked", st.Error)
	}
	if implied {
		w.Wrap(overlays.MarkImplied+" implied: the server left a hint out, so the spec's default applies", st.MarkImplied)
	}
}
