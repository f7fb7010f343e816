package policy

// Strictest combines two definitions of the same tool, for a server that lists a
// name twice: a client cannot know which definition the server will act on, so
// it must treat the tool at least as strictly as each. Every field of the result
// is a's or b's value for that field, never a value neither declared, so a
// client can take each hint's raw JSON from the definition it came from.
//
// Per hint, the stricter value wins and a tie keeps a's:
//   - readOnlyHint: a value other than true (not read-only);
//   - destructiveHint: a value that reads as destructive (Or(true)), and among
//     those a declared true over absent, because only a declared true turns
//     readOnlyHint: true into a Conflict;
//   - idempotentHint: a value that reads as not idempotent (Or(false) false);
//   - openWorldHint: a value that reads as open-world (Or(true)).
//
// Which definition is a and which is b never changes the effect:
// Strictest(a, b) and Strictest(b, a) have the same Effective.
func Strictest(a, b Hints) Hints {
	return Hints{
		ReadOnly:    stricter(a.ReadOnly, b.ReadOnly, readOnlyStrictness),
		Destructive: stricter(a.Destructive, b.Destructive, destructiveStrictness),
		Idempotent:  stricter(a.Idempotent, b.Idempotent, idempotentStrictness),
		OpenWorld:   stricter(a.OpenWorld, b.OpenWorld, openWorldStrictness),
	}
}

// stricter returns b only when it is strictly stricter than a, so ties keep a.
func stricter(a, b Hint, strictness func(Hint) int) Hint {
	if strictness(b) > strictness(a) {
		return b
	}
	return a
}

func readOnlyStrictness(h Hint) int {
	if h.Or(false) {
		return 0
	}
	return 1
}

func destructiveStrictness(h Hint) int {
	switch {
	case h == True:
		return 2
	case h.Or(true):
		return 1
	}
	return 0
}

func idempotentStrictness(h Hint) int {
	if h.Or(false) {
		return 0
	}
	return 1
}

func openWorldStrictness(h Hint) int {
	if h.Or(true) {
		return 1
	}
	return 0
}
