package redact

import (
	"regexp"
	"slices"
	"strings"
)

// Text replaces the secrets inside s with Marker and keeps the text around
// them: credentials after "Authorization:" or "Bearer", well-known token
// formats (sk-…, ghp_…, AKIA…, JWTs, …), PEM private key blocks, the values of
// secret-looking pairs such as password=… or "token": "…", and what URL
// removes from each URL in s. Text is idempotent.
func Text(s string) string { return text(s, nil) }

// text is Text that also reports each secret it replaces, for Find.
func text(s string, report func(string)) string {
	// One pass can hide a secret from itself: a cookie value that ends up
	// swallowing an "Authorization:" an earlier rule had judged by its value.
	// Passes only ever turn text into Marker, so repeating until nothing
	// changes settles in two or three; the bound is only a guard.
	for range 8 {
		next := pass(s, report)
		if next == s {
			break
		}
		s = next
	}
	return s
}

// pass applies every rule once.
func pass(s string, report func(string)) string {
	// Each pattern runs only when its literal part is in the text: Go's regexp
	// reads a megabyte a second with these, and tool arguments can be files.
	if strings.Contains(s, "PRIVATE KEY-----") {
		s = replaceAll(pemBlock(), s, 0, report, func(string) bool { return true })
	}
	if !strings.Contains(s, "://") {
		return plain(s, report)
	}
	var b strings.Builder
	last := 0
	for _, m := range urlSpan().FindAllStringIndex(s, -1) {
		b.WriteString(plain(s[last:m[0]], report))
		b.WriteString(redactURL(s[m[0]:m[1]], report))
		last = m[1]
	}
	b.WriteString(plain(s[last:], report))
	return b.String()
}

// headerNames are the pairs authHeader and cookieHeader already handled, with
// their scheme kept: pair must not take "Bearer" for the value.
var headerNames = map[string]bool{"authorization": true, "proxyauthorization": true, "cookie": true, "setcookie": true}

// plain redacts text that holds no URL.
func plain(s string, report func(string)) string {
	if s == "" {
		return s
	}
	// Replacing only ever removes text and adds Marker, which holds none of
	// these words, so looking once in the text as it came is enough.
	lower := strings.ToLower(s)
	if strings.Contains(lower, "authorization") {
		s = replaceAll(authHeader(), s, 1, report, func(v string) bool { return !keep(v) })
	}
	if strings.Contains(lower, "cookie") {
		s = replaceAll(cookieHeader(), s, 1, report, func(v string) bool { return !keep(strings.TrimSpace(v)) })
	}
	if strings.ContainsAny(s, ":=") {
		s = replacePairs(s, report)
	}
	if strings.Contains(lower, "bearer") || strings.Contains(lower, "basic") {
		s = replaceAll(bearer(), s, 1, report, looksRandom)
	}
	return tokens(s, report)
}

// tokens redacts the well-known token formats only: what URL applies to the
// parts of a URL that are not names and values.
func tokens(s string, report func(string)) string {
	if !slices.ContainsFunc(tokenHints, func(h string) bool { return strings.Contains(s, h) }) {
		return s
	}
	return replaceAll(tokenFormat(), s, 0, report, func(v string) bool {
		// "sk-" also starts ordinary hyphenated words: sk-learn-tutorial-basics.
		return !strings.HasPrefix(v, "sk-") || !wordy(v[3:])
	})
}

// replaceAll replaces submatch group of every match of re in s with Marker when
// secret says the group's text is one.
func replaceAll(re *regexp.Regexp, s string, group int, report func(string), secret func(string) bool) string {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		start, end := m[2*group], m[2*group+1]
		if start < 0 || !secret(s[start:end]) {
			continue
		}
		if report != nil {
			report(s[start:end])
		}
		b.WriteString(s[last:start])
		b.WriteString(Marker)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
