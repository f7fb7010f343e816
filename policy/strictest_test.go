package policy

import "testing"

// allHints is every combination of the four hints (absent/false/true): 81.
func allHints() []Hints {
	values := []Hint{Absent, False, True}
	var out []Hints
	for _, ro := range values {
		for _, de := range values {
			for _, id := range values {
				for _, ow := range values {
					out = append(out, Hints{ReadOnly: ro, Destructive: de, Idempotent: id, OpenWorld: ow})
				}
			}
		}
	}
	return out
}

func classRank(c Class) int {
	for i, k := range Classes {
		if k == c {
			return i
		}
	}
	return len(Classes)
}

// TestStrictestIsAtLeastAsStrictAsEach checks every pair of definitions under
// every trust, mode, --yes and --read-only.
func TestStrictestIsAtLeastAsStrictAsEach(t *testing.T) {
	all := allHints()
	if len(all) != 81 {
		t.Fatalf("%d hint combinations, want 81", len(all))
	}
	for _, a := range all {
		for _, b := range all {
			s := Strictest(a, b)
			for _, f := range Fields {
				if s.Get(f) != a.Get(f) && s.Get(f) != b.Get(f) {
					t.Errorf("Strictest(%+v, %+v).%s = %s, neither definition's value", a, b, f, s.Get(f))
				}
			}
			if rev := Strictest(b, a); s.Effective() != rev.Effective() {
				t.Errorf("Strictest(%+v, %+v) = %+v but reversed %+v: the order changed the effect", a, b, s.Effective(), rev.Effective())
			}
			if classRank(s.Class()) < classRank(a.Class()) || classRank(s.Class()) < classRank(b.Class()) {
				t.Errorf("Strictest(%+v, %+v) is %s, less dangerous than %s and %s", a, b, s.Class(), a.Class(), b.Class())
			}
			for _, trust := range []Trust{Trusted, Untrusted} {
				for _, mode := range []Mode{Interactive, Batch} {
					for _, yes := range []bool{false, true} {
						for _, readOnly := range []bool{false, true} {
							decide := func(h Hints) Decision {
								return Decide(Request{Tool: "t", Hints: h, Trust: trust, Mode: mode, Preapproved: yes, OnlyReadOnly: readOnly, MaxAttempts: 4})
							}
							ds, da, db := decide(s), decide(a), decide(b)
							if rank(ds.Verdict) < rank(da.Verdict) || rank(ds.Verdict) < rank(db.Verdict) {
								t.Errorf("%s %s yes=%v ro=%v: Strictest(%+v, %+v) %s, laxer than %s / %s",
									trust, mode, yes, readOnly, a, b, ds.Verdict, da.Verdict, db.Verdict)
							}
							if ds.ReplaySafe && !(da.ReplaySafe && db.ReplaySafe) {
								t.Errorf("%s: Strictest(%+v, %+v) is replay-safe, one definition is not", trust, a, b)
							}
							if (da.OpenWorld || db.OpenWorld) && !ds.OpenWorld {
								t.Errorf("%s: Strictest(%+v, %+v) is not open-world, a definition is", trust, a, b)
							}
						}
					}
				}
			}
		}
	}
}

func TestStrictestCases(t *testing.T) {
	tests := []struct {
		name string
		a, b Hints
		want Hints
	}{
		{"identical", readOnly, readOnly, readOnly},
		{"read-only and destructive writer",
			Hints{ReadOnly: True, OpenWorld: False}, Hints{ReadOnly: False, Destructive: True, Idempotent: True, OpenWorld: False},
			// idempotentHint absent on the read-only definition reads as false, and
			// wins: the combination is not replay-safe though both were.
			Hints{ReadOnly: False, Destructive: True, Idempotent: Absent, OpenWorld: False}},
		// destructiveHint absent and true read alike on a writer, but on a read-only
		// claim only a declared true makes a conflict: it must win either way round.
		{"absent destructive against declared true", Hints{ReadOnly: True}, Hints{ReadOnly: True, Destructive: True},
			Hints{ReadOnly: True, Destructive: True}},
		{"declared true destructive against absent", Hints{ReadOnly: True, Destructive: True}, Hints{ReadOnly: True},
			Hints{ReadOnly: True, Destructive: True}},
		{"ties keep a: readOnly absent and false", Hints{ReadOnly: Absent}, Hints{ReadOnly: False}, Hints{ReadOnly: Absent}},
		{"ties keep a: readOnly false and absent", Hints{ReadOnly: False}, Hints{ReadOnly: Absent}, Hints{ReadOnly: False}},
		{"ties keep a: idempotent false and absent", Hints{Idempotent: False}, Hints{Idempotent: Absent}, Hints{Idempotent: False}},
		{"ties keep a: openWorld absent and true", Hints{OpenWorld: Absent}, Hints{OpenWorld: True}, Hints{OpenWorld: Absent}},
		{"idempotent only if both", Hints{Idempotent: True}, Hints{Idempotent: Absent}, Hints{Idempotent: Absent}},
		{"closed world only if both", Hints{OpenWorld: False}, Hints{OpenWorld: True}, Hints{OpenWorld: True}},
	}
	for _, tt := range tests {
		if got := Strictest(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Strictest(%+v, %+v) = %+v, want %+v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}
