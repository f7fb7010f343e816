package form

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/style"
)

// The choice widgets of the form: a single choice (booleans, enums) and a
// multi-select (arrays of enum items).

func optionLabels(f *client.Field) []string {
	out := make([]string, len(f.Enum))
	for i := range f.Enum {
		out[i] = f.Label(i)
	}
	return out
}

// cycle moves a choice by delta, wrapping through (unset); it moves a
// multi-select's cursor, which has no (unset).
func (ff *formField) cycle(delta int) {
	ff.err = ""
	if ff.spec.Kind == kindMulti {
		n := len(ff.options)
		ff.choice = ((ff.choice-1+delta)%n+n)%n + 1
		return
	}
	n := len(ff.options) + 1
	ff.choice = ((ff.choice+delta)%n + n) % n
}

// toggle picks or unpicks a multi-select's option under the cursor. Picks
// keep the order they were made in: it is the order they are sent in.
func (ff *formField) toggle() {
	ff.err = ""
	i := ff.choice - 1
	if i < 0 || i >= len(ff.options) {
		return
	}
	if at := slices.Index(ff.picks, i); at >= 0 {
		ff.picks = slices.Delete(ff.picks, at, at+1)
	} else {
		ff.picks = append(ff.picks, i)
	}
}

// setPicks picks the options v lists, in its order; it fails when v is not
// a list of options, each once.
func (ff *formField) setPicks(v any) bool {
	ff.picks = nil
	items, ok := v.([]any)
	if !ok || len(items) == 0 {
		return false
	}
	for _, it := range items {
		i := slices.IndexFunc(ff.options, func(o any) bool { return jsonEqual(o, it) })
		if i < 0 || slices.Contains(ff.picks, i) {
			ff.picks = nil
			return false
		}
		ff.picks = append(ff.picks, i)
	}
	return true
}

// choiceView shows a choice as ‹ value › with its place among the others.
func (ff *formField) choiceView(st *style.Styles, focused bool) string {
	if ff.spec.Kind == kindMulti {
		return ff.multiView(st, focused)
	}
	cur := "(unset)"
	if ff.spec.HasDefault {
		cur = "(default: " + ff.shown(ff.spec.Default) + ")"
	}
	style := st.Muted
	if ff.choice > 0 && ff.choice <= len(ff.options) {
		cur, style = ff.labels[ff.choice-1], st.Row
	}
	pos := fmt.Sprintf(" %d/%d", ff.choice, len(ff.options))
	if ff.choice == 0 {
		pos = " " + units.Plural(len(ff.options), "choice")
	}
	arrows := ff.arrows(st, focused)
	return arrows.Render("‹ ") + style.Render(termtext.Line(cur)) + arrows.Render(" ›") + st.Muted.Render(pos)
}

// multiView shows the option under the cursor with its box, its place, and
// what is picked so far: ‹ [x] Red › 1/3 · Red, Blue.
func (ff *formField) multiView(st *style.Styles, focused bool) string {
	i := ff.choice - 1
	box := "[ ] "
	if slices.Contains(ff.picks, i) {
		box = "[x] "
	}
	var names []string
	for _, j := range ff.picks {
		names = append(names, ff.labels[j])
	}
	summary := strings.Join(names, ", ")
	switch {
	case summary != "":
	case ff.spec.HasDefault:
		summary = "default: " + ff.shown(ff.spec.Default)
	default:
		summary = "none picked"
	}
	arrows := ff.arrows(st, focused)
	return arrows.Render("‹ ") + st.Row.Render(box+termtext.Line(ff.labels[i])) + arrows.Render(" ›") +
		st.Muted.Render(fmt.Sprintf(" %d/%d · ", ff.choice, len(ff.options))+termtext.Line(summary))
}

func (ff *formField) arrows(st *style.Styles, focused bool) lipgloss.Style {
	if focused {
		return st.Focused
	}
	return st.Muted
}

// shown is how a value reads in a choice: an option's label when it is one,
// the labels of the options an array lists, or else the value itself.
func (ff *formField) shown(v any) string {
	if i := slices.IndexFunc(ff.options, func(o any) bool { return jsonEqual(o, v) }); i >= 0 {
		return ff.labels[i]
	}
	if items, ok := v.([]any); ok && ff.spec.Kind == kindMulti {
		names := make([]string, len(items))
		for j, it := range items {
			names[j] = valueText(it)
			if k := slices.IndexFunc(ff.options, func(o any) bool { return jsonEqual(o, it) }); k >= 0 {
				names[j] = ff.labels[k]
			}
		}
		return strings.Join(names, ", ")
	}
	return valueText(v)
}
