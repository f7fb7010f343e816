package hostedit

import (
	"bytes"

	"github.com/aymanbagabas/go-udiff"
)

// Diff is a unified diff of a file's text before and after an edit, with
// three lines of context, under the labels given. The lines are compared
// only where the texts differ: ~/.claude.json runs to megabytes around an
// entry of a few lines.
func Diff(oldLabel, newLabel string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	// Whole lines the two share at the start and at the end are left out.
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	pre = bytes.LastIndexByte(old[:pre], '\n') + 1
	suf := 0
	for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	// Back to just after a newline, so the part left out is whole lines.
	for suf > 0 && old[len(old)-suf-1] != '\n' {
		suf--
	}
	edits := udiff.Lines(string(old[pre:len(old)-suf]), string(new[pre:len(new)-suf]))
	for i := range edits {
		edits[i].Start += pre
		edits[i].End += pre
	}
	out, err := udiff.ToUnified(oldLabel, newLabel, string(old), edits, udiff.DefaultContextLines)
	if err != nil {
		return udiff.Unified(oldLabel, newLabel, string(old), string(new)) // cannot happen: the edits are the texts'
	}
	return out
}
