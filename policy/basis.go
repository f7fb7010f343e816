package policy

import (
	"fmt"
	"slices"
)

// Source is where the value a decision used for a hint came from.
type Source string

const (
	// SourceDeclared: the server declared the hint. A claim: nothing checks it.
	SourceDeclared Source = "declared"
	// SourceDefault: the server left the hint out; the spec's default applies.
	SourceDefault Source = "default"
	// SourceConflict: readOnlyHint and destructiveHint were both declared
	// true, and mcpsh took the stricter reading (not read-only).
	SourceConflict Source = "conflict"
)

// Basis is one hint a decision rested on: what the server declared, the
// value the decision used, and why that value.
type Basis struct {
	Field    Field `json:"hint"`
	Declared Hint  `json:"declared"`
	// Value is the value the decision used.
	Value  bool   `json:"value"`
	Source Source `json:"source"`
	// Believed is false when the server is untrusted and its claim (or
	// default) would have been more lenient than the worst case, which the
	// decision used instead.
	Believed bool `json:"believed"`
	// Decided marks the hints the verdict turned on.
	Decided bool `json:"decided,omitempty"`
	// Rule is the rule that matched on this hint (an is: term), or, with
	// Overridden, the rule that decided whatever this hint says.
	Rule       string `json:"rule,omitempty"`
	Overridden bool   `json:"overridden,omitempty"`
}

// String is the entry as one line for a person, for example
// `destructiveHint absent — the spec's default (true)`.
func (b Basis) String() string {
	var s string
	switch {
	case !b.Believed:
		// Only a declared hint can be disbelieved: the spec's defaults are
		// the worst case already.
		s = fmt.Sprintf("%s %s — declared, not believed: the server is untrusted (read as %v)", b.Field, b.Declared, b.Value)
	case b.Source == SourceDefault:
		s = fmt.Sprintf("%s absent — the spec's default (%v)", b.Field, b.Value)
	case b.Source == SourceConflict:
		s = fmt.Sprintf("%s %s — declared, but destructiveHint is true too: read as %v (the stricter reading)", b.Field, b.Declared, b.Value)
	default:
		s = fmt.Sprintf("%s %s — declared by the server (a claim, not checked)", b.Field, b.Declared)
	}
	switch {
	case b.Rule != "" && b.Overridden:
		s += fmt.Sprintf("; overridden by rule %q", b.Rule)
	case b.Rule != "":
		s += fmt.Sprintf("; rule %q matched on it", b.Rule)
	}
	return s
}

// Deciding are the entries of a decision's basis the verdict turned on.
func (d Decision) Deciding() []Basis {
	var out []Basis
	for _, b := range d.Basis {
		if b.Decided {
			out = append(out, b)
		}
	}
	return out
}

// Equal reports whether two decisions are the same in every field. A
// Decision holds its Basis in a slice, so == does not compile on it.
func (d Decision) Equal(o Decision) bool {
	return d.Verdict == o.Verdict && d.By == o.By && d.Rule == o.Rule && d.ReplaySafe == o.ReplaySafe &&
		d.NotReplaySafe == o.NotReplaySafe && d.MaxAttempts == o.MaxAttempts && d.OpenWorld == o.OpenWorld &&
		d.Reason == o.Reason && d.Need == o.Need && slices.Equal(d.Basis, o.Basis)
}

// MarshalText writes a hint as absent, false or true.
func (h Hint) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads what MarshalText writes; anything else is Absent, the
// value that assumes the worst.
func (h *Hint) UnmarshalText(b []byte) error {
	switch string(b) {
	case "true":
		*h = True
	case "false":
		*h = False
	default:
		*h = Absent
	}
	return nil
}

// basis is a decision's Basis while Decide builds it.
type basis struct{ entries []Basis }

// newBasis lists the hints that bear on a tool: on a trusted server the
// relevant ones (destructiveHint and idempotentHint say nothing about a
// read-only tool), on an untrusted one all four, each read for the worst.
func newBasis(h Hints, trusted bool) basis {
	e := h.Effective()
	b := basis{entries: make([]Basis, 0, len(Fields))}
	for _, f := range Fields {
		// Hints.Relevant, without working out Effective again.
		relevant := !e.ReadOnly || f == FieldReadOnly || f == FieldOpenWorld
		if trusted && !relevant {
			continue
		}
		declared := h.Get(f)
		v := e.get(f)
		if !relevant {
			// Listed for an untrusted server: its own reading, which the
			// tool's read-only claim made moot.
			v = declared.Or(Default(f))
		}
		entry := Basis{Field: f, Declared: declared, Value: v, Source: SourceDeclared, Believed: true}
		switch {
		case !declared.Declared():
			entry.Source = SourceDefault
		case f == FieldReadOnly && h.Conflict():
			entry.Source = SourceConflict
		}
		if !trusted {
			if worst := worstValue(f); entry.Value != worst {
				entry.Value, entry.Believed = worst, false
			}
		}
		b.entries = append(b.entries, entry)
	}
	return b
}

// worstValue is the value of a hint that makes a call the most careful:
// not read-only, destructive, not idempotent, open-world.
func worstValue(f Field) bool { return f == FieldDestructive || f == FieldOpenWorld }

func (e Effective) get(f Field) bool {
	switch f {
	case FieldReadOnly:
		return e.ReadOnly
	case FieldDestructive:
		return e.Destructive
	case FieldIdempotent:
		return e.Idempotent
	case FieldOpenWorld:
		return e.OpenWorld
	}
	return false
}

// decide marks the hints of fields as those the verdict turned on.
func (b *basis) decide(fields fieldSet) {
	for i := range b.entries {
		if fields.has(b.entries[i].Field) {
			b.entries[i].Decided = true
		}
	}
}

// override marks the hints the verdict would have turned on as overridden
// by r, which decided whatever they say.
func (b *basis) override(r Rule) {
	for i := range b.entries {
		if e := &b.entries[i]; e.Decided {
			e.Decided, e.Rule, e.Overridden = false, r.Pattern, true
		}
	}
}

// rule records the rule that decided the verdict: the hints its is: terms
// read, or, for a rule by name, the hints of the tool's class, which it
// overrode.
func (b *basis) rule(m ruleMatch, h Hints) {
	if m.is == 0 {
		for i := range b.entries {
			if e := &b.entries[i]; h.classFields().has(e.Field) {
				e.Decided, e.Rule, e.Overridden = false, m.rule.Pattern, true
			}
		}
		return
	}
	fields := h.facetFields(m.is)
	for i := range b.entries {
		if e := &b.entries[i]; fields.has(e.Field) {
			e.Decided, e.Rule, e.Overridden = true, m.rule.Pattern, false
		}
	}
}
