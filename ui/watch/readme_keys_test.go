package watch

import (
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/readmekeys"
	"github.com/mcpsh/mcpsh/ui/keymap"
)

// README's table of mcpsh watch's keys has a row for each section of its
// help, naming every key of it and no other, as the interactive view's
// table is checked (ui/readme_keys_test.go); host:GLOB and globs are words
// of the filter, not keys.
func TestREADMEWatchKeysMatchTheKeymap(t *testing.T) {
	var ss []readmekeys.Section
	for _, s := range sections(keymap.Default()) {
		ss = append(ss, readmekeys.Section{Where: s.title, Keys: s.keys})
	}
	readmekeys.Check(t, "../../README.md", "in mcpsh watch", ss, func(tok string) bool {
		return strings.HasPrefix(tok, "host:") || strings.Contains(tok, "*")
	})
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
