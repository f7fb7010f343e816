package policy

import (
	"strings"
	"testing"
)

func TestFacets(t *testing.T) {
	tests := []struct {
		h    Hints
		want string
	}{
		{Hints{}, "destructive, open-world, implied"},
		{Hints{ReadOnly: True, OpenWorld: False}, "read-only"},
		{Hints{ReadOnly: True, Idempotent: False, OpenWorld: False}, "read-only"},
		{Hints{ReadOnly: True}, "read-only, open-world, implied"},
		{Hints{ReadOnly: False, Destructive: False, Idempotent: True, OpenWorld: False}, "write, idempotent"},
		{Hints{ReadOnly: False, Destructive: False, Idempotent: False, OpenWorld: True}, "write, open-world"},
		{Hints{ReadOnly: False, OpenWorld: False}, "destructive, implied"},
		{Hints{ReadOnly: True, Destructive: True, Idempotent: True, OpenWorld: False}, "destructive, conflict, idempotent"},
		{Hints{ReadOnly: True, Destructive: True}, "destructive, open-world, implied, conflict"},
	}
	for _, tt := range tests {
		if got := tt.h.Facets().Words(); got != tt.want {
			t.Errorf("%+v.Facets() = %q, want %q", tt.h, got, tt.want)
		}
	}
}

// TestFacetsAreOneClassAndTheMarks holds Facets to its promise over every
// combination of hints: exactly one class, the class Class() says, and each
// mark exactly when its own definition holds.
func TestFacetsAreOneClassAndTheMarks(t *testing.T) {
	values := []Hint{Absent, False, True}
	classFacet := map[Class]Facet{ClassReadOnly: FacetReadOnly, ClassWrite: FacetWrite, ClassDestructive: FacetDestructive}
	for _, ro := range values {
		for _, de := range values {
			for _, id := range values {
				for _, ow := range values {
					h := Hints{ReadOnly: ro, Destructive: de, Idempotent: id, OpenWorld: ow}
					f, e := h.Facets(), h.Effective()
					if f&(FacetReadOnly|FacetWrite|FacetDestructive) != classFacet[h.Class()] {
						t.Errorf("%+v: class facets %q, class %s", h, f.Words(), h.Class())
					}
					marks := map[Facet]bool{
						FacetOpenWorld:  e.OpenWorld,
						FacetImplied:    len(h.Implied()) > 0,
						FacetConflict:   ro == True && de == True,
						FacetIdempotent: !e.ReadOnly && e.Idempotent,
					}
					for facet, want := range marks {
						if (f&facet != 0) != want {
							t.Errorf("%+v: %s is %v, want %v", h, facet.Words(), f&facet != 0, want)
						}
					}
				}
			}
		}
	}
}

func TestParseFacet(t *testing.T) {
	for _, w := range FacetWords {
		for _, typed := range []string{w.Word, strings.ToUpper(w.Word), strings.ReplaceAll(w.Word, "-", "")} {
			if f, ok := ParseFacet(typed); !ok || f != w.Facet {
				t.Errorf("ParseFacet(%q) = %v, %v", typed, f, ok)
			}
		}
	}
	for _, bad := range []string{"", "dest", "allowed", "denied", "-", "read-only-", "readonlyx"} {
		if f, ok := ParseFacet(bad); ok {
			t.Errorf("ParseFacet(%q) = %v: prefixes and session words are not rule words", bad, f)
		}
	}
}
