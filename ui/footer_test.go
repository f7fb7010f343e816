package ui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

func TestFooterKeepsHelpAndQuit(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	k := m.keys
	browse := m.bindings()
	result := []key.Binding{k.ScrollUp, k.ScrollDown, k.Edit, k.RawJSON, k.Copy, k.Save, k.Close, k.Log, k.Help, k.Quit}
	running := []key.Binding{k.CancelCall, k.Log, k.Server, k.Help, k.ForceQuit}
	var got []string
	for _, c := range []struct {
		name string
		b    []key.Binding
	}{{"browse", browse}, {"result", result}, {"running", running}} {
		for _, w := range []int{200, 80, 60, 30, 12} {
			line := ansi.Strip(renderFooter(m.st, k, c.b, w))
			if ansi.StringWidth(line) > w {
				t.Errorf("%s at %d: %d cells: %q", c.name, w, ansi.StringWidth(line), line)
			}
			want := []string{"? help", "q quit"}
			if c.name == "running" {
				want = []string{"? help", "ctrl+c quit"}
			}
			if w == 12 {
				want = []string{"?", "q"}
				if c.name == "running" {
					want = []string{"?", "ctrl+c"}
				}
			}
			for _, s := range want {
				if !strings.Contains(line, s) {
					t.Errorf("%s at %d lacks %q: %q", c.name, w, s, line)
				}
			}
			if w == 80 || w == 200 {
				got = append(got, c.name+" "+itoa(w)+": "+line)
			}
		}
	}
	// At 80 columns the first keys keep their words; later ones say less
	// before any is dropped.
	full := ansi.Strip(renderFooter(m.st, k, browse, 80))
	if !strings.HasPrefix(full, "↑/k up • ↓/j down • enter call") {
		t.Errorf("the first keys lost their words: %q", full)
	}
	golden(t, "footer/keys-80-200", strings.Join(got, "\n"))
}
