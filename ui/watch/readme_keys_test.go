package watch

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/ui/keymap"
)

// readmeWatchKeys reads README's table of mcpsh watch's keys: each row's
// "where" and the backticked tokens of its "keys".
func readmeWatchKeys(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := slices.Index(lines, "| in mcpsh watch | keys |")
	if start < 0 {
		t.Fatal(`README has no "| in mcpsh watch | keys |" table`)
	}
	tick := regexp.MustCompile("`([^`]+)`")
	rows := map[string][]string{}
	for _, l := range lines[start+2:] {
		if !strings.HasPrefix(l, "|") {
			break
		}
		cells := strings.Split(l, "|")
		if len(cells) < 4 {
			t.Fatalf("README watch keys row %q has no two cells", l)
		}
		where := strings.TrimSpace(cells[1])
		for _, m := range tick.FindAllStringSubmatch(strings.Join(cells[2:], "|"), -1) {
			rows[where] = append(rows[where], m[1])
		}
	}
	return rows
}

// README's table of mcpsh watch's keys has a row for each section of its
// help, naming every key of it and no other, as the interactive view's
// table is checked (ui/readme_keys_test.go).
func TestREADMEWatchKeysMatchTheKeymap(t *testing.T) {
	rows := readmeWatchKeys(t)
	seen := map[string]bool{}
	for _, s := range sections(keymap.Default()) {
		seen[s.title] = true
		tokens, ok := rows[s.title]
		if !ok {
			t.Errorf("README's watch keys table has no row %q", s.title)
			continue
		}
		want := map[string]bool{}
		for _, b := range s.keys {
			k := b.Help().Key
			toks := strings.Split(k, "/")
			if k == "/" {
				toks = []string{"/"}
			}
			for _, tok := range toks {
				want[tok] = true
				if !slices.Contains(tokens, tok) {
					t.Errorf("README watch row %q lacks `%s` (%s)", s.title, tok, b.Help().Desc)
				}
			}
		}
		for _, tok := range tokens {
			if !want[tok] && !strings.HasPrefix(tok, "host:") && !strings.Contains(tok, "*") {
				t.Errorf("README watch row %q names `%s`, which is not a key there", s.title, tok)
			}
		}
	}
	for where := range rows {
		if !seen[where] {
			t.Errorf("README's watch keys table has a row %q that help has no section for", where)
		}
	}
}

// Every key the console answers to is in help: the footer's keys are
// among the sections' keys.
func TestHelpCoversTheFooter(t *testing.T) {
	m, _ := newTest(t, true, 80, 24)
	busy(m)
	listed := map[string]bool{}
	for _, s := range sections(m.keys) {
		for _, b := range s.keys {
			listed[strings.Join(b.Keys(), " ")] = true
		}
	}
	check := func(where string) {
		for _, b := range m.bindings() {
			if !listed[strings.Join(b.Keys(), " ")] {
				t.Errorf("%s: the footer's %s (%s) is in no section of help", where, b.Help().Key, b.Help().Desc)
			}
		}
	}
	arm(m)
	check("the dialog")
	press(m, "n")
	check("the list")
	press(m, "/")
	check("typing a filter")
	press(m, "esc", "enter")
	check("a call")
	press(m, "?")
	check("help")
}
