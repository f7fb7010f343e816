package ui

import (
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/overlays"
)

// facet is a property the filter can ask for with is:: the tool's own
// facets, policy's (the words config rules take too), and two of the
// session's, which policy does not know of: facetAllowed, which the user
// changes during the session, and facetDenied, which follows the rules.
type facet uint32

const (
	facetReadOnly    = facet(policy.FacetReadOnly)
	facetWrite       = facet(policy.FacetWrite)
	facetDestructive = facet(policy.FacetDestructive)
	facetOpenWorld   = facet(policy.FacetOpenWorld)
	facetImplied     = facet(policy.FacetImplied)
	facetConflict    = facet(policy.FacetConflict)
	facetIdempotent  = facet(policy.FacetIdempotent)
	facetAllowed     = facet(1 << 16)
	facetDenied      = facet(1 << 17)
)

// isFilter is one word after is:, with what it finds.
type isFilter struct {
	word  string
	facet facet
	finds string
}

// isFilters are the words after is:, in the order help lists them: policy's,
// each with the mark the list shows for it, then the session's. A word may
// be shortened to any prefix ("is:dest"), and the hyphen may be left out
// ("is:readonly").
var isFilters = func() []isFilter {
	marks := map[policy.Facet]string{
		policy.FacetOpenWorld:  overlays.MarkOpenWorld,
		policy.FacetImplied:    overlays.MarkImplied,
		policy.FacetConflict:   overlays.MarkConflict,
		policy.FacetIdempotent: overlays.MarkIdempotent,
	}
	var out []isFilter
	for _, w := range policy.FacetWords {
		finds := w.Finds
		if m, ok := marks[w.Facet]; ok {
			finds += " (" + m + ")"
		}
		out = append(out, isFilter{w.Word, facet(w.Facet), finds})
	}
	return append(out,
		isFilter{"allowed", facetAllowed, "tools you allowed for this session (" + overlays.MarkAllowed + ")"},
		isFilter{"denied", facetDenied, "tools a deny rule blocks (" + overlays.MarkDenied + ")"})
}()

// listQuery is a parsed filter: words to find in a tool's name, title or
// description, and is: terms. A tool passes when it matches every word and,
// for every is: term, has one of the facets the term names.
type listQuery struct {
	words   []string
	is      []facet
	unknown []string // is: words that name no facet, for the list to say so
}

func (q listQuery) empty() bool { return len(q.words) == 0 && len(q.is) == 0 && len(q.unknown) == 0 }

// wants reports whether some is: term asks for f.
func (q listQuery) wants(f facet) bool {
	for _, t := range q.is {
		if t&f != 0 {
			return true
		}
	}
	return false
}

// parseQuery reads a filter. "is:" with nothing after it (the user is still
// typing) asks for nothing; a prefix that fits several facets asks for any
// of them, so the list narrows as the word is typed.
func parseQuery(s string) listQuery {
	var q listQuery
	for _, w := range strings.Fields(strings.ToLower(s)) {
		v, ok := strings.CutPrefix(w, "is:")
		if !ok {
			q.words = append(q.words, w)
			continue
		}
		if v == "" {
			continue
		}
		var f facet
		bare := strings.ReplaceAll(v, "-", "")
		for _, in := range isFilters {
			if strings.HasPrefix(strings.ReplaceAll(in.word, "-", ""), bare) {
				f |= in.facet
			}
		}
		if f == 0 {
			q.unknown = append(q.unknown, v)
			continue
		}
		q.is = append(q.is, f)
	}
	return q
}

// facetsOf are a tool's facets that do not change during the session, as
// policy works them out from its hints (the list's marks follow the same);
// denied says whether a rule blocks it.
func facetsOf(t *client.Tool, denied bool) facet {
	f := facet(t.Hints.Facets())
	if denied {
		f |= facetDenied
	}
	return f
}

// classIndex is the place of a tool's class, read from its facets, in
// policy.Classes.
func classIndex(f facet) int {
	switch {
	case f&facetReadOnly != 0:
		return 0
	case f&facetWrite != 0:
		return 1
	}
	return 2
}
