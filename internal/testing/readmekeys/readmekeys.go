// Package readmekeys is for tests only: it holds a table of keys in
// README.md to the sections of a view's help, so that what the README
// promises is what the keymap does (ui's table and ui/watch's).
package readmekeys

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// Section is one row the table must have: where focus is, and its keys.
type Section struct {
	Where string
	Keys  []key.Binding
}

// Tokens are a binding's keys as help writes them: "↑/k" is ↑ and k.
func Tokens(b key.Binding) []string {
	k := b.Help().Key
	if k == "/" {
		return []string{"/"}
	}
	return strings.Split(k, "/")
}

// Table reads the README table whose header row is "| head | keys |": each
// row's first cell and the backticked tokens of the rest.
func Table(t testing.TB, readme, head string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	header := "| " + head + " | keys |"
	start := slices.Index(lines, header)
	if start < 0 {
		t.Fatalf("README has no %q table", header)
	}
	tick := regexp.MustCompile("`([^`]+)`")
	rows := map[string][]string{}
	for _, l := range lines[start+2:] {
		if !strings.HasPrefix(l, "|") {
			break
		}
		cells := strings.Split(l, "|")
		if len(cells) < 4 {
			t.Fatalf("README's %q row %q has no two cells", head, l)
		}
		where := strings.TrimSpace(cells[1])
		for _, m := range tick.FindAllStringSubmatch(strings.Join(cells[2:], "|"), -1) {
			rows[where] = append(rows[where], m[1])
		}
	}
	return rows
}

// Check holds the table to the sections: a row for each section, naming
// every key of it and none it does not have (but for the tokens notKey
// accepts: filter words, globs), and no row without a section.
func Check(t testing.TB, readme, head string, sections []Section, notKey func(tok string) bool) {
	t.Helper()
	rows := Table(t, readme, head)
	seen := map[string]bool{}
	for _, s := range sections {
		seen[s.Where] = true
		tokens, ok := rows[s.Where]
		if !ok {
			t.Errorf("README's %q table has no row %q", head, s.Where)
			continue
		}
		want := map[string]bool{}
		for _, b := range s.Keys {
			for _, tok := range Tokens(b) {
				want[tok] = true
				if !slices.Contains(tokens, tok) {
					t.Errorf("README's %q row %q lacks `%s` (%s)", head, s.Where, tok, b.Help().Desc)
				}
			}
		}
		for _, tok := range tokens {
			if !want[tok] && !notKey(tok) {
				t.Errorf("README's %q row %q names `%s`, which is not a key there in the keymap", head, s.Where, tok)
			}
		}
	}
	for where := range rows {
		if !seen[where] {
			t.Errorf("README's %q table has a row %q that help has no section for", head, where)
		}
	}
}
