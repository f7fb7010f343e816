package ui

import (
	"context"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// helpKeyTokens are a binding's keys as help writes them: "↑/k" is ↑ and k.
func helpKeyTokens(b key.Binding) []string {
	k := b.Help().Key
	if k == "/" {
		return []string{"/"}
	}
	return strings.Split(k, "/")
}

// readmeKeysTable reads README's keys table: each row's "where" and the
// backticked tokens of its "keys".
func readmeKeysTable(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := slices.Index(lines, "| where | keys |")
	if start < 0 {
		t.Fatal(`README has no "| where | keys |" table`)
	}
	tick := regexp.MustCompile("`([^`]+)`")
	rows := map[string][]string{}
	for _, l := range lines[start+2:] {
		if !strings.HasPrefix(l, "|") {
			break
		}
		cells := strings.Split(l, "|")
		if len(cells) < 4 {
			t.Fatalf("README keys row %q has no two cells", l)
		}
		where := strings.TrimSpace(cells[1])
		for _, m := range tick.FindAllStringSubmatch(strings.Join(cells[2:], "|"), -1) {
			rows[where] = append(rows[where], m[1])
		}
	}
	return rows
}

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
	v := reflect.ValueOf(*m.keys)
	for i := range v.NumField() {
		b := v.Field(i).Interface().(key.Binding)
		if !listed[strings.Join(b.Keys(), " ")] {
			t.Errorf("KeyMap.%s (%s) is in no section of the help overlay (helpSections)", v.Type().Field(i).Name, b.Help().Key)
		}
	}
}

// TestREADMEKeysTableMatchesTheKeymap: README's keys table has a row for each
// section of the help overlay, naming every key of it, and names no key the
// section does not have (is: filter words aside, checked against the filter).
func TestREADMEKeysTableMatchesTheKeymap(t *testing.T) {
	m := New(context.Background(), Options{NoColor: true})
	rows := readmeKeysTable(t)
	seen := map[string]bool{}
	for _, s := range m.helpSections() {
		where := strings.ToLower(strings.TrimSuffix(s.title, " (here)"))
		seen[where] = true
		tokens, ok := rows[where]
		if !ok {
			t.Errorf("README's keys table has no row %q", where)
			continue
		}
		want := map[string]bool{}
		for _, b := range s.keys {
			for _, tok := range helpKeyTokens(b) {
				want[tok] = true
				if !slices.Contains(tokens, tok) {
					t.Errorf("README row %q lacks `%s` (%s)", where, tok, b.Help().Desc)
				}
			}
		}
		for _, tok := range tokens {
			if !want[tok] && !isFilterWord(tok) {
				t.Errorf("README row %q names `%s`, which is not a key of that view in the keymap", where, tok)
			}
		}
	}
	for where := range rows {
		if !seen[where] {
			t.Errorf("README's keys table has a row %q that the help overlay has no section for", where)
		}
	}
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
