// Package policy turns a tool's annotations into decisions: what class the tool is,
// whether a call runs, asks first or is refused, and whether it may be replayed.
//
// The package is pure on purpose: standard library only, no I/O, and every function
// is total over its inputs, so the rules that keep users safe can be read and tested
// in one place. The golden matrix test renders every combination of inputs.
package policy

// Hint is one tool annotation as the server sent it: absent, false or true.
// A value the server sent with the wrong JSON type counts as Absent, which is the
// safe choice because the spec's defaults assume the worst.
type Hint uint8

const (
	Absent Hint = iota
	False
	True
)

// HintOf returns True or False for a declared boolean.
func HintOf(b bool) Hint {
	if b {
		return True
	}
	return False
}

// Declared reports whether the server sent this hint.
func (h Hint) Declared() bool { return h == False || h == True }

// Or returns the hint's value, or def when the server left it out.
func (h Hint) Or(def bool) bool {
	switch h {
	case True:
		return true
	case False:
		return false
	default:
		return def
	}
}

func (h Hint) String() string {
	switch h {
	case True:
		return "true"
	case False:
		return "false"
	default:
		return "absent"
	}
}

// The spec's values for hints a server leaves out. They assume the worst: an
// unannotated tool may change things, destroy things, and reach the outside world.
const (
	DefaultReadOnly    = false
	DefaultDestructive = true
	DefaultIdempotent  = false
	DefaultOpenWorld   = true
)

// Hints are a tool's four behavioural annotations, as declared.
type Hints struct {
	ReadOnly    Hint
	Destructive Hint
	Idempotent  Hint
	OpenWorld   Hint
}

// Effective is what mcpsh assumes after applying the spec's defaults and, for a
// Conflict, the stricter reading.
type Effective struct {
	ReadOnly    bool
	Destructive bool
	// Idempotent means repeating the call with the same arguments has no further
	// effect. A read-only tool has no effect at all, so it is idempotent whatever
	// its idempotentHint says (the spec gives that hint meaning only for writers).
	Idempotent bool
	OpenWorld  bool
}

// Effective applies the spec defaults. destructiveHint and idempotentHint only
// matter when the tool is not read-only, and a Conflict is not read-only: the
// spec's literal reading would let readOnlyHint win and run a self-declared
// destroyer unasked, so mcpsh believes the more dangerous half of the claim.
func (h Hints) Effective() Effective {
	e := h.Literal()
	if h.Conflict() {
		e.ReadOnly = false
		e.Destructive = true
		e.Idempotent = h.Idempotent.Or(DefaultIdempotent)
	}
	return e
}

// Conflict reports readOnlyHint and destructiveHint both declared true. The two
// cannot both hold, and a client cannot tell which one the server got wrong, so
// mcpsh reads such a tool as destructive rather than as read-only.
func (h Hints) Conflict() bool { return h.ReadOnly == True && h.Destructive == True }

// Literal is the spec's own reading, where readOnlyHint: true makes
// destructiveHint and idempotentHint irrelevant even when they contradict it.
// mcpsh decides on Effective; Literal exists to say what hosts that follow the
// spec to the letter will do with a tool.
func (h Hints) Literal() Effective {
	e := Effective{
		ReadOnly:  h.ReadOnly.Or(DefaultReadOnly),
		OpenWorld: h.OpenWorld.Or(DefaultOpenWorld),
	}
	if e.ReadOnly {
		e.Idempotent = true
		return e
	}
	e.Destructive = h.Destructive.Or(DefaultDestructive)
	e.Idempotent = h.Idempotent.Or(DefaultIdempotent)
	return e
}

// Field names one hint by its wire name.
type Field string

const (
	FieldReadOnly    Field = "readOnlyHint"
	FieldDestructive Field = "destructiveHint"
	FieldIdempotent  Field = "idempotentHint"
	FieldOpenWorld   Field = "openWorldHint"
)

// Fields lists the hints in display order.
var Fields = []Field{FieldReadOnly, FieldDestructive, FieldIdempotent, FieldOpenWorld}

// Get returns the declared value of one hint.
func (h Hints) Get(f Field) Hint {
	switch f {
	case FieldReadOnly:
		return h.ReadOnly
	case FieldDestructive:
		return h.Destructive
	case FieldIdempotent:
		return h.Idempotent
	case FieldOpenWorld:
		return h.OpenWorld
	}
	return Absent
}

// Default returns the spec's value for a hint the server left out.
func Default(f Field) bool {
	switch f {
	case FieldDestructive:
		return DefaultDestructive
	case FieldOpenWorld:
		return DefaultOpenWorld
	}
	return false
}

// Relevant reports whether a hint affects the effective behaviour of this tool:
// destructiveHint and idempotentHint are ignored on read-only tools (a Conflict
// is not one, so there they count).
func (h Hints) Relevant(f Field) bool {
	if f == FieldDestructive || f == FieldIdempotent {
		return !h.Effective().ReadOnly
	}
	return true
}

// Implied lists the relevant hints the server left out, whose spec defaults were
// applied. A UI marks such tools so users can tell a declared class from a guessed one.
func (h Hints) Implied() []Field {
	var out []Field
	for _, f := range Fields {
		if !h.Get(f).Declared() && h.Relevant(f) {
			out = append(out, f)
		}
	}
	return out
}

// Class is the safety group a tool is listed under.
type Class string

const (
	ClassReadOnly    Class = "read-only"
	ClassWrite       Class = "write"
	ClassDestructive Class = "destructive"
)

// Classes lists the classes from safest to most dangerous.
var Classes = []Class{ClassReadOnly, ClassWrite, ClassDestructive}

// Class is read-only, write (mutates, declared non-destructive) or destructive
// (declared, by default, or by a Conflict).
func (h Hints) Class() Class {
	e := h.Effective()
	switch {
	case e.ReadOnly:
		return ClassReadOnly
	case e.Destructive:
		return ClassDestructive
	default:
		return ClassWrite
	}
}

// DisplayTitle follows the spec's precedence: the tool's title, then the
// annotations' title, then the name.
func DisplayTitle(title, annotationsTitle, name string) string {
	switch {
	case title != "":
		return title
	case annotationsTitle != "":
		return annotationsTitle
	default:
		return name
	}
}
