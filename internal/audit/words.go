package audit

import (
	"strings"
	"sync"
	"unicode"
)

// The name heuristics. They read a tool's name and the first sentence of its
// description as words, and compare what those suggest with the hints. They
// are hints about hints: they warn, and only against hints the server set
// explicitly (a class that comes from a default is another rule's finding).

var (
	// destructiveWords suggest deleting, overwriting, revoking, cancelling,
	// sending or paying: things a read-only or additive tool does not do.
	destructiveWords = words("delete deletes deleting remove removes removing destroy destroys drop drops purge purges erase erases wipe wipes overwrite overwrites truncate truncates reset resets revoke revokes cancel cancels terminate terminates kill kills uninstall unlink rm rmdir send sends sending pay pays payment payments charge charges refund refunds transfer transfers withdraw withdraws")
	// readWords suggest a pure read.
	readWords = words("get gets list lists read reads search searches find finds show shows describe describes query queries fetch fetches lookup view views inspect count counts check checks stat")
	// openWorldWords suggest the web, email, URLs or third-party services.
	openWorldWords = words("http https url urls uri web website websites webpage webpages internet online browse browser email emails e-mail mail sms slack discord twitter github gitlab jira webhook webhooks download downloads upload uploads scrape crawl google bing stripe")
	// createWords suggest an action that adds something new each time.
	createWords = words("create creates add adds append appends insert inserts send sends post posts push pushes enqueue publish publishes new")
	// idempotentEvidence in a description says a create is idempotent after all
	// ("ensure the directory exists", "if it already exists, nothing happens").
	idempotentEvidence = []string{"ensure", "idempotent", "already exist", "if not exist", "if it does not exist", "if missing", "upsert", "create or update", "create or replace", "no effect"}
)

// words is the set of s's words, built when a rule first asks: every
// command would pay for the sets at start-up, and only an audit reads them.
func words(s string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(s) {
			m[w] = true
		}
		return m
	})
}

// tokens splits a name like "deleteUser", "delete_user" or "delete-user.v2"
// into lower-case words.
func tokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// firstSentence is the description up to its first full stop: later sentences
// often mention other things ("…then sends a request to the client").
func firstSentence(desc string) string {
	desc = strings.TrimSpace(desc)
	for i := 0; i < len(desc); i++ {
		if (desc[i] == '.' || desc[i] == '!' || desc[i] == '?' || desc[i] == '\n') && (i+1 == len(desc) || desc[i+1] == ' ' || desc[i+1] == '\n') {
			return desc[:i]
		}
	}
	return desc
}

// suggests returns the first word of the tool's name, then of its first
// sentence, that is in set, and where it was found.
func suggests(name, desc string, set map[string]bool) (word, where string) {
	for _, w := range tokens(name) {
		if set[w] {
			return w, "name"
		}
	}
	for _, w := range tokens(firstSentence(desc)) {
		if set[w] {
			return w, "description"
		}
	}
	return "", ""
}

// nameStartsWith reports whether the name's first word is in set: "get_user"
// is a read, "user_get_or_create" is not known to be.
func nameStartsWith(name string, set map[string]bool) string {
	t := tokens(name)
	if len(t) > 0 && set[t[0]] {
		return t[0]
	}
	return ""
}

func hasIdempotentEvidence(desc string) bool {
	d := strings.ToLower(desc)
	for _, e := range idempotentEvidence {
		if strings.Contains(d, e) {
			return true
		}
	}
	return false
}
