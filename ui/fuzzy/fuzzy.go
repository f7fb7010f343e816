// Package fuzzy is the tool list's filter's scorer. It is ours rather than github.com/sahilm/fuzzy (the
// library bubbles' list uses) for two reasons, both measured: that library
// scores one string per candidate, so a tool's name, title and description
// cannot weigh differently, and it allocates per candidate, which costs 3 to
// 6 ms a keystroke on the titles and names of 10,000 tools alone, more than
// the 5 ms this view allows for the filter and the whole frame. Ours works on
// text lower-cased once per listing and allocates nothing per tool.
package fuzzy

import (
	"strings"
	"unicode/utf8"
)

// Match qualities, best first. A word scores in one band; a tool's score is
// the sum over the words of the filter, so a tool that matches every word
// well ranks above one that matches one word exactly and the others barely.
// A word found whole (ending where a word of the text ends: "note" in
// delete_note, not in archive_notes) gets a little more, within its band.
const (
	scoreNameExact     = 1000
	scoreNamePrefix    = 900
	scoreNameWord      = 800 // at the start of a word inside the name: "note" in get_note
	scoreTitlePrefix   = 750
	scoreTitleWord     = 700
	scoreInside        = 500 // anywhere in the name or the title
	scoreFuzzy         = 100 // the letters in order in the name or title: "dlnt" in delete_note
	scoreFuzzyMaxBonus = 299 // keeps every fuzzy match below scoreInside
	scoreDescWord      = 60
	scoreDesc          = 50
	scoreWholeName     = 50 // less than the gap to the band above
	scoreWholeTitle    = 25
)

// WordScore is how well one lower-cased word matches a tool, 0 when it does
// not. hay is the tool's title, name and description, lower-cased and joined
// by NULs; name and title are the lower-cased name and title.
func WordScore(word, hay, name, title string) int {
	if !strings.Contains(hay, word) {
		return max(fuzzyScore(word, name), fuzzyScore(word, title))
	}
	if name == word {
		return scoreNameExact
	}
	if at, whole := wordAt(name, word); at >= 0 {
		score := scoreNameWord
		if at == 0 {
			score = scoreNamePrefix
		}
		if whole {
			score += scoreWholeName
		}
		return score
	}
	if at, whole := wordAt(title, word); at >= 0 {
		score := scoreTitleWord
		if at == 0 {
			score = scoreTitlePrefix
		}
		if whole {
			score += scoreWholeTitle
		}
		return score
	}
	if strings.Contains(name, word) || strings.Contains(title, word) {
		return scoreInside
	}
	// Only the description has it (hay is title, NUL, name, NUL,
	// description).
	if at, _ := wordAt(hay[len(title)+1+len(name)+1:], word); at >= 0 {
		return scoreDescWord
	}
	return scoreDesc
}

// wordAt is where word first occurs in s at the start of a word of s, -1
// when it does not; whole says it also ends where a word of s ends, at its
// first such place.
func wordAt(s, word string) (at int, whole bool) {
	at = -1
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return at, false
		}
		k := i + j
		if k == 0 || isWordBreak(s[k-1]) {
			if at < 0 {
				at = k
			}
			if end := k + len(word); end == len(s) || isWordBreak(s[end]) {
				return at, true
			}
		}
		i = k + 1
	}
}

func isWordBreak(b byte) bool {
	switch b {
	case ' ', '_', '-', '.', '/', ':', '(', '[':
		return true
	}
	return false
}

// fuzzyScore scores word as a subsequence of s: every letter of word in
// order, not necessarily together. Letters at the start of a word of s or
// right after the previous match earn more; skipped letters cost a little.
// It is 0 when word is not a subsequence.
func fuzzyScore(word, s string) int {
	if word == "" || len(word) > len(s) {
		return 0
	}
	bonus, gaps := 0, 0
	end := -1 // just after the previous letter's match; -1 before the first
	for i := 0; i < len(word); {
		r, n := rune(word[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(word[i:])
		}
		k := indexRuneFrom(s, max(end, 0), r, n == 1)
		if k < 0 {
			return 0
		}
		switch {
		case k == end:
			bonus += 8 // right after the previous letter
		case k == 0 || isWordBreak(s[k-1]):
			bonus += 6 // starts a word
		}
		if end >= 0 {
			gaps += k - end
		}
		end = k + n // a rune is as long in s as in word
		i += n
	}
	return scoreFuzzy + min(max(bonus-min(gaps, 40), 0), scoreFuzzyMaxBonus)
}

// indexRuneFrom is the index of r in s at or after from, or -1.
func indexRuneFrom(s string, from int, r rune, ascii bool) int {
	if from >= len(s) {
		return -1
	}
	var k int
	if ascii {
		k = strings.IndexByte(s[from:], byte(r))
	} else {
		k = strings.IndexRune(s[from:], r)
	}
	if k < 0 {
		return -1
	}
	return from + k
}
