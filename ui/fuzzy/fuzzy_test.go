package fuzzy

import (
	"strings"
	"testing"
)

func scoreOf(word, title, name, desc string) int {
	title, name = strings.ToLower(title), strings.ToLower(name)
	return WordScore(word, title+"\x00"+name+"\x00"+strings.ToLower(desc), name, title)
}

func TestWordScoreBands(t *testing.T) {
	// Better matches score higher, whatever the description says.
	ordered := []struct {
		what                     string
		word, title, name, descr string
	}{
		{"the name exactly", "note", "A note", "note", ""},
		{"the name's start", "get", "Read a note", "get_note", ""},
		{"a word in the name", "note", "Read", "get_note", ""},
		{"the title's start", "read", "Read a thing", "get_note", ""},
		{"a word in the title", "thing", "Read a thing", "get_note", ""},
		{"inside the name", "ote", "Read", "get_note", ""},
		{"letters in order in the name", "gtnt", "Read", "get_note", ""},
		{"a word of the description", "milk", "Read", "get_note", "finds milk"},
		{"inside the description", "ilk", "Read", "get_note", "finds milk"},
	}
	prev := 1 << 30
	for _, c := range ordered {
		s := scoreOf(c.word, c.title, c.name, c.descr)
		if s <= 0 || s >= prev {
			t.Errorf("%s: score %d, want between 0 and %d (the band above)", c.what, s, prev)
		}
		prev = s
	}
	if s := scoreOf("xyz", "Read a note", "get_note", "nothing here"); s != 0 {
		t.Errorf("no match scored %d", s)
	}
	// Fuzzy matching is for names and titles: scattered letters in a long
	// description would match almost anything.
	if s := scoreOf("gtnt", "Read", "read", "get a note today"); s != 0 {
		t.Errorf("letters scattered over the description scored %d", s)
	}
}

func TestFuzzyScorePrefersWordStartsAndRuns(t *testing.T) {
	starts := fuzzyScore("dn", "delete_note") // d and n start words
	inside := fuzzyScore("ee", "delete_note") // both inside words
	run := fuzzyScore("dele", "xdelete_note") // a run
	if starts <= inside {
		t.Errorf("word starts %d ≤ letters inside words %d", starts, inside)
	}
	if run <= inside {
		t.Errorf("a run %d ≤ scattered letters %d", run, inside)
	}
	if fuzzyScore("ton", "note") != 0 || fuzzyScore("notes", "note") != 0 {
		t.Error("letters out of order, or more letters than the text, matched")
	}
	if fuzzyScore("né", "nom éclair") == 0 || fuzzyScore("éa", "nom éclair") == 0 {
		t.Error("non-ASCII letters in order did not match")
	}
	for _, s := range []string{"a", "dn", "delete", "xyzzy"} {
		if got := fuzzyScore(s, "delete_note"); got != 0 && (got < scoreFuzzy || got > scoreFuzzy+scoreFuzzyMaxBonus) {
			t.Errorf("fuzzyScore(%q) = %d, outside its band", s, got)
		}
	}
}
