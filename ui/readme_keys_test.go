package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/readmekeys"
)

// TestTheHelpCoversTheKeymap: every binding of the KeyMap is in some section
// of the help overlay, which the README table is checked against below; a
// binding added to ui/keymap without a place in help fails here.
func TestTheHelpCoversTheKeymap(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true})
	listed := map[string]bool{}
	for _, s := range m.helpSections() {
		for _, b := range s.keys {
			listed[strings.Join(b.Keys(), " ")] = true
		}
	}
	for _, b := range m.keys.All() {
		if !listed[strings.Join(b.Keys(), " ")] {
			t.Errorf("KeyMap.%s (%s) is in no section of the help overlay (helpSections)", b.Name, b.Help().Key)
		}
	}
}

// TestREADMEKeysTableMatchesTheKeymap: README's keys table has a row for each
// section of the help overlay, naming every key of it, and names no key the
// section does not have (is: filter words aside, checked against the filter).
func TestREADMEKeysTableMatchesTheKeymap(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true})
	var sections []readmekeys.Section
	for _, s := range m.helpSections() {
		sections = append(sections, readmekeys.Section{Where: strings.ToLower(strings.TrimSuffix(s.title, " (here)")), Keys: s.keys})
	}
	readmekeys.Check(t, "../README.md", "where", sections, isFilterWord)
}

// isFilterWord reports whether tok is is: with a prefix of a filter word.
func isFilterWord(tok string) bool {
	w, ok := strings.CutPrefix(tok, "is:")
	if !ok || w == "" {
		return false
	}
	for _, f := range isFilters {
		if strings.HasPrefix(f.word, w) {
			return true
		}
	}
	return false
}
