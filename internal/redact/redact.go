// Package redact is the one place that knows what a secret looks like. The
// session log, the client's messages and the CLI's output all pass text through
// it before a person or a file sees it, so a pattern added here protects them all.
//
// It errs towards keeping text: a pattern must be specific enough (a known token
// prefix, a secret-looking name before "=", a credential after "Bearer") that
// ordinary words, paths and identifiers pass untouched, because a message with
// its useful parts blanked out is a message nobody can act on.
package redact

import (
	"slices"
	"strings"
)

// Marker replaces every secret.
const Marker = "[redacted]"

// minKnown is the shortest value Known replaces: shorter ones ("dev", "1234")
// occur in ordinary text, and blanking them would mangle messages.
const minKnown = 6

// Known replaces every occurrence of the given secret values with Marker,
// longest first, so a secret that contains another is replaced whole. Empty and
// very short values (under 6 bytes) are ignored.
func Known(s string, secrets []string) string {
	var olds []string
	for _, v := range secrets {
		// A value inside the marker would match the marker itself on the next pass.
		if len(v) >= minKnown && !strings.Contains(Marker, v) {
			olds = append(olds, v)
		}
	}
	if len(olds) == 0 {
		return s
	}
	slices.SortFunc(olds, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	olds = slices.Compact(olds)
	// A Replacer tries its old strings in argument order at each position and
	// never looks inside what it wrote, so longest-first holds and one pass is enough.
	args := make([]string, 0, 2*len(olds))
	for _, v := range olds {
		args = append(args, v, Marker)
	}
	return strings.NewReplacer(args...).Replace(s)
}

// Find returns the secrets Text would replace in s, in the order found: what a
// caller must keep out of other output once it knows s held them.
func Find(s string) []string {
	var found []string
	text(s, func(v string) { found = append(found, v) })
	return found
}

// reference matches a value that only names a variable (${TOKEN}, $TOKEN): it is
// where a secret comes from, not the secret, and showing it helps the reader.
var reference = lazy(`^(?:\$\{[^{}]+\}|\$[A-Za-z_][A-Za-z0-9_]*)$`)

// keep reports whether a candidate value must stay as it is: empty, only a
// variable reference, or already redacted.
func keep(v string) bool {
	return v == "" || reference().MatchString(v) || strings.HasPrefix(v, Marker)
}

// looksRandom tells a credential from a word: it has a digit, or capitals
// after its first letter alongside lower case ("dXNlcjpwYXNz", not "Something").
func looksRandom(s string) bool {
	var digit, upper, lower bool
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'A' && r <= 'Z' && i > 0:
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		}
	}
	return digit || upper && lower
}

// wordy reports text made of short lower-case words joined by "-" or "_"
// ("learn-tutorial-basics"): what follows "sk-" in a name rather than a key,
// which has digits, capitals or a long run of letters.
func wordy(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' }) {
		if len(w) > 12 || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			return false
		}
	}
	return true
}
