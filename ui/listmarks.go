package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
)

// The marks shown beside a tool are overlays' (MarkIdempotent…): the
// detail and the session log show them too. The legend under the list
// explains them.

// markW is the width of the marks column: idempotent, open-world, implied
// or conflict, allowed or denied.
const markW = 4

type marks struct{ idempotent, openWorld, implied, conflict, allowed, denied bool }

// rowMarks are the marks that follow from a tool's declaration: its facets
// (policy.Hints.Facets, which rules match on too); allowed and denied
// depend on the session and are set by the list.
func rowMarks(t *client.Tool) marks {
	f := t.Hints.Facets()
	return marks{
		idempotent: f&policy.FacetIdempotent != 0,
		openWorld:  f&policy.FacetOpenWorld != 0,
		implied:    f&policy.FacetImplied != 0,
		conflict:   f&policy.FacetConflict != 0,
	}
}

// plain renders the marks without styles, for the selected row's own style.
func (m marks) plain() string {
	third := pick(m.implied, overlays.MarkImplied)
	if m.conflict {
		third = overlays.MarkConflict
	}
	last := pick(m.allowed, overlays.MarkAllowed)
	if m.denied {
		last = overlays.MarkDenied
	}
	return pick(m.idempotent, overlays.MarkIdempotent) + pick(m.openWorld, overlays.MarkOpenWorld) + third + last
}

func (m marks) render(st *style.Styles) string {
	out := pick(m.idempotent, st.Mark.Render(overlays.MarkIdempotent)) + pick(m.openWorld, st.MarkOpenWorld.Render(overlays.MarkOpenWorld))
	if m.conflict {
		out += st.Error.Render(overlays.MarkConflict)
	} else {
		out += pick(m.implied, st.MarkImplied.Render(overlays.MarkImplied))
	}
	if m.denied {
		return out + st.Error.Render(overlays.MarkDenied)
	}
	return out + pick(m.allowed, st.OK.Render(overlays.MarkAllowed))
}

func pick(on bool, s string) string {
	if on {
		return s
	}
	return " "
}

// legend explains the marks: always the first three, the conflict mark when
// some tool has one, and allowed and denied when a row on screen shows them.
// It says less as the pane narrows; when even its shortest words do not fit
// one line it takes two, and is cut only past that.
func (l *toolList) legend(seen marks, width int) []string {
	// Each mark's words, from the longest to the shortest.
	type item struct {
		mark  string
		words [4]string
	}
	items := []item{
		{overlays.MarkIdempotent, [4]string{"idempotent", "idempotent", "idem", "idem"}},
		{overlays.MarkOpenWorld, [4]string{"open-world", "open-world", "open-world", "open"}},
		{overlays.MarkImplied, [4]string{"hints implied", "implied", "implied", "impl"}},
	}
	if l.conflicts {
		items = append(items, item{overlays.MarkConflict, [4]string{"conflicting hints", "conflict", "conflict", "conflict"}})
	}
	if seen.allowed {
		items = append(items, item{overlays.MarkAllowed, [4]string{"allowed for the session", "allowed", "allowed", "allowed"}})
	}
	if seen.denied {
		items = append(items, item{overlays.MarkDenied, [4]string{"denied by a rule", "denied", "denied", "denied"}})
	}
	parts := make([]string, len(items))
	for form := range 4 {
		for n, i := range items {
			parts[n] = i.mark + " " + i.words[form]
		}
		for _, sep := range []string{"  ", " "} {
			if text := strings.Join(parts, sep); ansi.StringWidth(text) <= width {
				return []string{text}
			}
		}
	}
	for n, i := range items {
		parts[n] = i.mark + " " + i.words[2] // short enough, and still says "open-world"
	}
	var out []string
	for _, p := range parts {
		switch last := len(out) - 1; {
		case last >= 0 && ansi.StringWidth(out[last])+1+ansi.StringWidth(p) <= width:
			out[last] += " " + p
		case len(out) < 2:
			out = append(out, p)
		default:
			out[last] += " " + p
		}
	}
	for i := range out {
		out[i] = termtext.Truncate(out[i], width)
	}
	return out
}
