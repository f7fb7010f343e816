package redact

import "strings"

// replacePairs redacts the values of secret-looking pairs: NAME=VALUE,
// NAME: VALUE, "NAME": "VALUE" and the like, keeping the name, the separator
// and any quotes around the value. A pair whose name is not secret does not
// hide the pairs inside its value: "error: password=…".
//
// It is written out rather than a regexp: a pattern for the name runs on every
// word of the text, and JSON arguments the size of a file are full of pairs.
func replacePairs(s string, report func(string)) string {
	var b strings.Builder
	last := 0
	unclosed := map[byte]int{}
	for sep := 0; ; sep++ {
		i := strings.IndexAny(s[sep:], ":=")
		if i < 0 {
			break
		}
		sep += i
		name, from := pairName(s, sep)
		if from < last || !Name(name) || headerNames[strings.Join(words(name), "")] {
			continue // no name, not secret, or inside a value already replaced
		}
		v0 := sep + 1
		for v0 < len(s) && (s[v0] == ' ' || s[v0] == '\t') {
			v0++
		}
		start, end, ok := pairValue(s, v0, unclosed)
		v := s[start:end]
		if !ok || keep(v) || isLiteral(v) {
			continue
		}
		if report != nil {
			report(v)
		}
		b.WriteString(s[last:start])
		b.WriteString(Marker)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// pairName finds the name before the separator at s[sep]: a quoted run of
// name characters, or a bare one starting with a letter at a word boundary
// ("x.password", not the "assword" of "9password"). from is where the name, or
// its opening quote, starts; name is empty when there is none.
func pairName(s string, sep int) (name string, from int) {
	q := sep
	for q > 0 && (s[q-1] == ' ' || s[q-1] == '\t') {
		q--
	}
	if q > 0 && (s[q-1] == '"' || s[q-1] == '\'') {
		quote := s[q-1]
		j := q - 1
		for j > 0 && isNameByte(s[j-1]) {
			j--
		}
		if j == q-1 || j == 0 || s[j-1] != quote {
			return "", sep
		}
		return s[j : q-1], j - 1
	}
	j := q
	for j > 0 && isNameByte(s[j-1]) {
		j--
	}
	// The name starts at the first letter that follows a non-word character.
	for i := j; i < q; i++ {
		if isLetter(s[i]) && (i == j || s[i-1] == '.' || s[i-1] == '-') {
			return s[i:q], i
		}
	}
	return "", sep
}

func isNameByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// pairValue finds the value that starts at s[i]: the inside of a quoted string
// (a double-quoted one may escape its quote), a ${VAR} reference, or a run of
// characters up to a space or punctuation that ends a value in prose, JSON or a
// query string. unclosed remembers, per quote, where a search for a closing
// quote last gave up: a later opening quote before that point cannot be closed
// either, and searching again would make `password="password="…` quadratic.
func pairValue(s string, i int, unclosed map[byte]int) (start, end int, ok bool) {
	if i >= len(s) {
		return i, i, false
	}
	switch q := s[i]; {
	case q == '"' || q == '\'':
		if i < unclosed[q] {
			return i, i, false
		}
		j := i + 1
		for ; j < len(s) && s[j] != '\n'; j++ {
			switch {
			case s[j] == '\\' && q == '"':
				j++
			case s[j] == q:
				return i + 1, j, true
			}
		}
		unclosed[q] = j
		return i, i, false
	case strings.HasPrefix(s[i:], "${"):
		if k := strings.IndexAny(s[i+2:], "{} \t\r\n"); k >= 0 && s[i+2+k] == '}' {
			return i, i + 2 + k + 1, true
		}
	}
	end = i
	for end < len(s) && !strings.ContainsRune(" \t\r\n\f\v,;&\"'<>{}()", rune(s[end])) {
		end++
	}
	return i, end, end > i
}

// isLiteral reports JSON's null and booleans, which are no secret: "password": null.
func isLiteral(v string) bool {
	switch v {
	case "null", "true", "false":
		return true
	}
	return false
}
