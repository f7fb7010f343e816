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

// Marks shown beside a tool. The legend under the list explains them. The
// open-world mark is overlays.MarkOpenWorld: the session log shows it too.
const (
	markIdempotent = "↻"
	markImplied    = "~"
	// markConflict takes the place of markImplied: a tool declared both
	// read-only and destructive, read as destructive.
	markConflict = "!"
	// markAllowed: the user allowed the tool for this session (a in the
	// confirmation dialog); markDenied: a deny rule blocks it.
	markAllowed = "✓"
	markDenied  = "⊘"
)

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
	third := pick(m.implied, markImplied)
	if m.conflict {
		third = markConflict
	}
	last := pick(m.allowed, markAllowed)
	if m.denied {
		last = markDenied
	}
	return pick(m.idempotent, markIdempotent) + pick(m.openWorld, overlays.MarkOpenWorld) + third + last
}

func (m marks) render(st *style.Styles) string {
	out := pick(m.idempotent, st.Mark.Render(markIdempotent)) + pick(m.openWorld, st.MarkOpenWorld.Render(overlays.MarkOpenWorld))
	if m.conflict {
		out += st.Error.Render(markConflict)
	} else {
		out += pick(m.implied, st.MarkImplied.Render(markImplied))
	}
	if m.denied {
		return out + st.Error.Render(markDenied)
	}
	return out + pick(m.allowed, st.OK.Render(markAllowed))
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
		{markIdempotent, [4]string{"idempotent", "idempotent", "idem", "idem"}},
		{overlays.MarkOpenWorld, [4]string{"open-world", "open-world", "open-world", "open"}},
		{markImplied, [4]string{"hints implied", "implied", "implied", "impl"}},
	}
	if l.conflicts {
		items = append(items, item{markConflict, [4]string{"conflicting hints", "conflict", "conflict", "conflict"}})
	}
	if seen.allowed {
		items = append(items, item{markAllowed, [4]string{"allowed for the session", "allowed", "allowed", "allowed"}})
	}
	if seen.denied {
		items = append(items, item{markDenied, [4]string{"denied by a rule", "denied", "denied", "denied"}})
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
