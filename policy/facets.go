package policy

import "strings"

// Facet is a property of a tool that people filter by and rules match on,
// worked out from its hints: its class, and the marks a tool list shows.
// Facets combine as bits; a rule that names several wants all of them.
type Facet uint16

const (
	FacetDestructive Facet = 1 << iota
	FacetWrite
	FacetReadOnly
	FacetOpenWorld
	FacetImplied
	FacetConflict
	FacetIdempotent
)

// FacetWord is one word of the vocabulary: the word after "is:", the facet
// it names, and what it finds, for help texts.
type FacetWord struct {
	Word  string
	Facet Facet
	Finds string
}

// FacetWords are the words, in the order help lists them. A tool list's
// filter and the config's rules take the same words, so "is:open-world"
// means one thing wherever it is typed.
var FacetWords = []FacetWord{
	{"destructive", FacetDestructive, "destructive tools"},
	{"write", FacetWrite, "write tools (declared non-destructive)"},
	{"read-only", FacetReadOnly, "read-only tools"},
	{"open-world", FacetOpenWorld, "open-world tools"},
	{"implied", FacetImplied, "tools with a hint left out"},
	{"conflict", FacetConflict, "tools declared read-only and destructive"},
	{"idempotent", FacetIdempotent, "idempotent writers"},
}

// ParseFacet returns the facet word names: the exact word, in any case, or
// the word with its hyphen left out ("readonly"). Prefixes are a filter's
// convenience while typing; a rule must say what it means.
func ParseFacet(word string) (Facet, bool) {
	for _, w := range FacetWords {
		if strings.EqualFold(word, w.Word) || equalFoldWithoutHyphen(word, w.Word) {
			return w.Facet, true
		}
	}
	return 0, false
}

// equalFoldWithoutHyphen reports whether word is facet word w with its
// hyphen left out, in any case; it allocates nothing, as rules are read for
// every call.
func equalFoldWithoutHyphen(word, w string) bool {
	before, after, ok := strings.Cut(w, "-")
	return ok && len(word) == len(before)+len(after) &&
		strings.EqualFold(word[:len(before)], before) && strings.EqualFold(word[len(before):], after)
}

// Words names the facets of f, in FacetWords order, joined by ", ".
func (f Facet) Words() string {
	var out []string
	for _, w := range FacetWords {
		if f&w.Facet != 0 {
			out = append(out, w.Word)
		}
	}
	return strings.Join(out, ", ")
}

// Facets are exactly the marks a tool list shows for a tool with these hints:
// its class (one of destructive, write, read-only); open-world when the
// effective openWorldHint is true; implied when a relevant hint was left
// out; conflict when readOnlyHint and destructiveHint are both true; and
// idempotent for a writer whose effective idempotentHint is true (a
// read-only tool is idempotent anyway, and is not marked).
func (h Hints) Facets() Facet {
	e := h.Effective()
	var f Facet
	switch {
	case e.ReadOnly:
		f |= FacetReadOnly
	case e.Destructive:
		f |= FacetDestructive
	default:
		f |= FacetWrite
	}
	if e.OpenWorld {
		f |= FacetOpenWorld
	}
	for _, fd := range Fields {
		if !h.Get(fd).Declared() && h.Relevant(fd) {
			f |= FacetImplied
			break
		}
	}
	if h.Conflict() {
		f |= FacetConflict
	}
	if !e.ReadOnly && e.Idempotent {
		f |= FacetIdempotent
	}
	return f
}

// worstCase are the facets an untrusted server's tool is taken to have
// whatever it declares, when a deny or confirm rule asks for them: a hostile
// server must not escape "deny is:destructive" by claiming to be read-only.
// The other facets (read-only, idempotent, conflict) are matched as
// declared: believing such a claim can only make a deny or confirm rule
// match more often.
const worstCase = FacetDestructive | FacetWrite | FacetOpenWorld | FacetImplied

// MatchFacets reports whether a rule of action a that asks for every facet
// of want matches a tool with hints h on a server of trust t.
//
// On a trusted server the tool's Facets decide. On an untrusted one a rule
// can only make a call stricter: an allow rule that asks for any facet never
// matches (it would believe the server's hints to let a call run), and deny
// and confirm rules match the worst case (see worstCase). A rule that asks
// for no facet matches on its other terms alone.
func MatchFacets(want Facet, h Hints, t Trust, a Action) bool {
	if want == 0 {
		return true
	}
	have := h.Facets()
	if t != Trusted {
		if a.strictness() <= Allow.strictness() {
			return false
		}
		have |= worstCase
	}
	return have&want == want
}

// fieldSet is a set of hints, a bit per Fields index, so that a decision
// works out its basis without allocating.
type fieldSet uint8

func fieldBit(f Field) fieldSet {
	for i, x := range Fields {
		if x == f {
			return 1 << i
		}
	}
	return 0
}

func (s fieldSet) has(f Field) bool { return s&fieldBit(f) != 0 }

// facetFields are the hints a facet is read from, for a decision's basis:
// the class facets from the hints that decide the class, the marks from the
// hints they show.
func (h Hints) facetFields(f Facet) fieldSet {
	var out fieldSet
	if f&(FacetDestructive|FacetWrite|FacetReadOnly) != 0 {
		out |= h.classFields()
	}
	if f&FacetConflict != 0 {
		out |= fieldBit(FieldReadOnly) | fieldBit(FieldDestructive)
	}
	if f&FacetOpenWorld != 0 {
		out |= fieldBit(FieldOpenWorld)
	}
	if f&FacetIdempotent != 0 {
		out |= fieldBit(FieldIdempotent)
	}
	if f&FacetImplied != 0 {
		for _, fd := range Fields {
			if !h.Get(fd).Declared() && h.Relevant(fd) {
				out |= fieldBit(fd)
			}
		}
	}
	return out
}

// classFields are the hints the tool's class turned on: those a server
// could have declared otherwise and so put the tool in another class, and
// in a Conflict the readOnlyHint mcpsh did not take. destructiveHint true
// decides a destructive tool alone (readOnlyHint false or absent beside it
// could not make it anything else); a tool destructive by the spec's
// defaults turns on both.
func (h Hints) classFields() fieldSet {
	if h.Conflict() {
		return fieldBit(FieldReadOnly) | fieldBit(FieldDestructive)
	}
	var out fieldSet
	class := h.Class()
	for _, fd := range []Field{FieldReadOnly, FieldDestructive} {
		for _, v := range []Hint{Absent, False, True} {
			alt := h
			alt.set(fd, v)
			if alt.Class() != class {
				out |= fieldBit(fd)
				break
			}
		}
	}
	return out
}

func (h *Hints) set(f Field, v Hint) {
	switch f {
	case FieldReadOnly:
		h.ReadOnly = v
	case FieldDestructive:
		h.Destructive = v
	case FieldIdempotent:
		h.Idempotent = v
	case FieldOpenWorld:
		h.OpenWorld = v
	}
}
