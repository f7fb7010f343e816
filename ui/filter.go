package ui

import (
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/panes"
)

// facet is a safety property the filter can ask for with is:. A tool's
// facets are worked out once per listing, except facetAllowed, which the
// user changes during the session.
type facet uint16

const (
	facetReadOnly facet = 1 << iota
	facetWrite
	facetDestructive
	facetOpenWorld
	facetImplied
	facetConflict
	facetIdempotent
	facetAllowed
	facetDenied
)

// isFilters are the words after is:, in the order help lists them, with
// what each finds. A word may be shortened to any prefix ("is:dest"), and
// the hyphen may be left out ("is:readonly").
var isFilters = []struct {
	word  string
	facet facet
	finds string
}{
	{"destructive", facetDestructive, "destructive tools"},
	{"write", facetWrite, "write tools (declared non-destructive)"},
	{"read-only", facetReadOnly, "read-only tools"},
	{"open-world", facetOpenWorld, "open-world tools (" + panes.MarkOpenWorld + ")"},
	{"implied", facetImplied, "tools with a hint left out (" + markImplied + ")"},
	{"conflict", facetConflict, "tools declared read-only and destructive (" + markConflict + ")"},
	{"idempotent", facetIdempotent, "idempotent writers (" + markIdempotent + ")"},
	{"allowed", facetAllowed, "tools you allowed for this session (" + markAllowed + ")"},
	{"denied", facetDenied, "tools a deny rule blocks (" + markDenied + ")"},
}

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

// facetsOf are a tool's facets that do not change during the session; deny
// says whether a rule blocks it. They follow the list's marks, so a filter
// finds exactly the tools that show the mark.
func facetsOf(t *client.Tool, denied bool) facet {
	var f facet
	switch t.Class() {
	case policy.ClassReadOnly:
		f |= facetReadOnly
	case policy.ClassWrite:
		f |= facetWrite
	default:
		f |= facetDestructive
	}
	m := rowMarks(t)
	if m.openWorld {
		f |= facetOpenWorld
	}
	if m.implied {
		f |= facetImplied
	}
	if m.conflict {
		f |= facetConflict
	}
	if m.idempotent {
		f |= facetIdempotent
	}
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
